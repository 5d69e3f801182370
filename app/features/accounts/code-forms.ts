import { z } from "~/lib/zod";
import { emailField } from "~/lib/form-fields";

// The forms of sign-in by emailed code (docs/decisions/0061): /login/codigo and /admin/login's second step.

const code = z
  .string({ error: "Escriba el código que le enviamos por correo." })
  .trim()
  .regex(/^\d{8}$/, "El código tiene 8 dígitos; escríbalo tal como aparece en el correo.");

/** /login/codigo, first step: where to send the code. */
export const RequestCodeSchema = z.object({
  intent: z.literal("pedir"),
  email: emailField,
  redirectTo: z.string().optional(),
});

/** /login/codigo, second step: the code (the otpId and email come along hidden). */
export const EnterCodeSchema = z.object({
  intent: z.literal("entrar"),
  otpId: z.string().min(1).max(255),
  email: emailField,
  code,
  redirectTo: z.string().optional(),
});

export const CustomerCodeSchema = z.discriminatedUnion("intent", [RequestCodeSchema, EnterCodeSchema]);

/** /admin/login's second step: the emailed code, with the first step's ids. */
export const StaffCodeSchema = z.object({
  intent: z.literal("codigo"),
  mfaId: z.string().min(1).max(255),
  otpId: z.string().min(1).max(255),
  email: emailField,
  code,
  redirectTo: z.string().optional(),
});
