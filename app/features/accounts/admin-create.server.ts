import path from "node:path";
import { z } from "~/lib/zod";
import { openDatabase, useDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { upsertStaffAccount } from "./staff-account.server";
import { isCommonPassword } from "./common-passwords";

const AdminInputSchema = z.object({
  email: z.email({ error: "--email debe ser un correo válido" }).transform((value) => value.toLowerCase()),
  password: z
    .string({ error: "falta --password" })
    .min(8, "--password debe tener al menos 8 caracteres")
    .max(128, "--password no puede tener más de 128 caracteres")
    .refine((value) => !isCommonPassword(value), "--password es una contraseña demasiado común"),
  name: z.string({ error: "falta --name" }).trim().min(2, "--name debe tener al menos 2 caracteres"),
});

/**
 * `npm run admin:create -- --email … --password … --name …`: opens the configured database
 * (refusing while a server holds an embedded one), applies migrations and creates or updates the
 * staff account. Idempotent.
 */
export async function runAdminCreate(input: Record<string, string | undefined>): Promise<string> {
  const parsed = AdminInputSchema.safeParse(input);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("\n"));
  const env = getEnv();
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : path.join(env.dataDir, "db"),
  });
  useDatabase(database);
  try {
    await database.migrate();
    const outcome = await upsertStaffAccount(parsed.data);
    return outcome === "created"
      ? `Cuenta del personal creada: ${parsed.data.email}. Entre en /admin/login.`
      : `Cuenta del personal actualizada (contraseña y nombre): ${parsed.data.email}. Sus sesiones abiertas se cerraron.`;
  } finally {
    await database.close();
    useDatabase(undefined);
  }
}
