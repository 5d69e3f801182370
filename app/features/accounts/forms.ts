import { z } from "~/lib/zod";
import { isCommonPassword } from "./common-passwords";
import { emailField } from "~/lib/form-fields";

// One schema per form, shared by the browser (instant validation) and the server (the authority).

const email = emailField;

const newPassword = z
  .string({ error: "Escriba una contraseña." })
  .min(8, "La contraseña debe tener al menos 8 caracteres.")
  .max(128, "La contraseña no puede tener más de 128 caracteres.")
  .refine((value) => !isCommonPassword(value), "Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra.");

const name = z
  .string({ error: "Escriba su nombre." })
  .trim()
  .min(2, "Escriba su nombre completo.")
  .max(120, "El nombre es demasiado largo.")
  .regex(/^\P{Cc}*$/u, "El nombre no puede llevar saltos de línea ni caracteres de control.");
const optionalText = (max: number) => z.string().trim().max(max, `Máximo ${max} caracteres.`).optional();
const phone = z
  .string()
  .trim()
  .regex(/^(\+?52)?[\s-]?(\d[\s-]?){10}$/, "Escriba un teléfono de 10 dígitos; puede empezar con +52.")
  .optional();

export const LoginSchema = z.object({
  email,
  password: z.string({ error: "Escriba su contraseña." }).min(1, "Escriba su contraseña.").max(128),
  redirectTo: z.string().optional(),
});

export const RegisterSchema = z
  .object({
    name,
    email,
    company: optionalText(160),
    phone,
    password: newPassword,
    passwordConfirm: z.string({ error: "Repita la contraseña." }),
    privacy: z.literal("on", { error: "Para crear su cuenta debe aceptar el aviso de privacidad." }),
    redirectTo: z.string().optional(),
  })
  .refine((value) => value.password === value.passwordConfirm, { path: ["passwordConfirm"], message: "Las contraseñas no coinciden." });

export const ForgotPasswordSchema = z.object({ email });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1, "El enlace no es válido. Solicite uno nuevo."),
    password: newPassword,
    passwordConfirm: z.string({ error: "Repita la contraseña." }),
  })
  .refine((value) => value.password === value.passwordConfirm, { path: ["passwordConfirm"], message: "Las contraseñas no coinciden." });

export const ProfileSchema = z.object({
  intent: z.literal("profile"),
  name,
  company: optionalText(160),
  phone,
});

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword: z.string({ error: "Escriba su contraseña actual." }).min(1, "Escriba su contraseña actual."),
    newPassword,
    passwordConfirm: z.string({ error: "Repita la contraseña nueva." }),
  })
  .refine((value) => value.newPassword === value.passwordConfirm, { path: ["passwordConfirm"], message: "Las contraseñas no coinciden." })
  .refine((value) => value.newPassword !== value.currentPassword, { path: ["newPassword"], message: "La contraseña nueva debe ser distinta de la actual." });

/** The rules of a person's name and of a new password, for the API's own validation (docs/decisions/0017). */
export { name as personNameField, newPassword as newPasswordField, phone as phoneField };
/** A company's name, as the registration and profile forms take it. */
export const companyField = optionalText(160);

/** /cuenta's «Cambiar correo»: only the new address, as PocketBase's request-email-change (docs/decisions/0062). */
export const EmailChangeSchema = z.object({
  intent: z.literal("email"),
  newEmail: emailField,
});

/** The page the email-change link opens: the account's password confirms the change. */
export const ConfirmEmailChangeSchema = z.object({
  token: z.string({ error: "El enlace no está completo. Pida uno nuevo desde Mi cuenta." }).min(1, "El enlace no está completo. Pida uno nuevo desde Mi cuenta."),
  password: z.string({ error: "Escriba la contraseña de su cuenta." }).min(1, "Escriba la contraseña de su cuenta.").max(128, "La contraseña no puede tener más de 128 caracteres."),
});
