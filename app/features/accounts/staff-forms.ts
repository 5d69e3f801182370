import { z } from "~/lib/zod";
import { STAFF_ROLES } from "./staff-roles";

// The forms of /admin/personal, shared by the browser (instant validation) and the server.

const role = z.enum(STAFF_ROLES, { error: "Elija el rol de la persona." });
const userId = z.string({ error: "Falta la cuenta." }).trim().min(1, "Falta la cuenta.").max(64);

export const StaffInviteSchema = z.object({
  intent: z.literal("invitar"),
  name: z.string({ error: "Escriba el nombre de la persona." }).trim().min(2, "Escriba el nombre completo de la persona.").max(120, "El nombre es demasiado largo."),
  email: z
    .string({ error: "Escriba el correo de la persona." })
    .trim()
    .toLowerCase()
    .max(254, "El correo es demasiado largo.")
    .pipe(z.email({ error: "Escriba un correo válido, por ejemplo nombre@empresa.com." })),
  role,
});

export const StaffRoleSchema = z.object({ intent: z.literal("rol"), userId, role });

export const StaffStateSchema = z.object({ intent: z.enum(["desactivar", "reactivar"]), userId });

export const StaffResendSchema = z.object({ intent: z.literal("reenviar"), userId });
