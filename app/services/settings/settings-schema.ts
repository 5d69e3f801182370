import { z } from "~/lib/zod";
import { parseCronExpression } from "~/services/jobs/cron-expression";
import { DEFAULT_RATE_LIMITS, RateLimitsSettingsSchema } from "~/services/security/rate-limit-settings";

// The technical settings in PocketBase's shape (issue 17 §3, docs/decisions/0057), with Forja's rules
// and Spanish messages. Browser-safe: /admin/sistema's form validates with it too. Only sections
// that something in Forja reads are here; business facts live in `ajustes` (issue 16).

/** A cron expression the scheduler runs ("0 3 * * *", in UTC), or "" for none. */
export function isCronExpression(value: string): boolean {
  if (value.trim() === "") return true;
  try {
    parseCronExpression(value);
    return true;
  } catch {
    return false;
  }
}

const text = (max: number) => z.string({ error: "Escriba texto." }).trim().max(max, `Use como máximo ${max} caracteres.`);

/** PocketBase's S3 connection (`s3` for stored files, `backups.s3` for backups; docs/decisions/0059). */
export const S3SettingsSchema = z
  .object({
    enabled: z.boolean({ error: "Indique sí o no." }),
    bucket: text(255),
    region: text(255),
    endpoint: z.union([z.literal(""), z.string({ error: "Escriba la dirección del servicio." }).trim().regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, "Escriba la dirección completa del servicio, con http:// o https://, por ejemplo https://s3.us-east-1.amazonaws.com.")]),
    accessKey: text(255),
    secret: z.string({ error: "Escriba la clave secreta." }).max(1000, "La clave secreta es demasiado larga."),
    forcePathStyle: z.boolean({ error: "Indique sí o no." }),
  })
  .superRefine((value, context) => {
    if (!value.enabled) return;
    const required = {
      bucket: "Escriba el nombre del bucket.",
      region: "Escriba la región, por ejemplo us-east-1.",
      endpoint: "Escriba la dirección del servicio, por ejemplo https://s3.us-east-1.amazonaws.com.",
      accessKey: "Escriba la clave de acceso.",
      secret: "Escriba la clave secreta.",
    } as const;
    for (const [field, message] of Object.entries(required)) {
      if (value[field as keyof typeof required].trim() === "") context.addIssue({ code: "custom", path: [field], message });
    }
  });

export type S3Settings = z.output<typeof S3SettingsSchema>;

export const DEFAULT_S3_SETTINGS: S3Settings = { enabled: false, bucket: "", region: "", endpoint: "", accessKey: "", secret: "", forcePathStyle: false };

export const SettingsSchema = z.object({
  meta: z.object({
    appName: text(120).min(1, "Escriba el nombre del sitio."),
    appURL: z.string({ error: "Escriba la dirección pública del sitio." }).trim().regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, "Escriba la dirección completa, con http:// o https://, por ejemplo https://forja.example."),
    senderName: text(120),
    senderAddress: z.union([z.literal(""), z.email({ error: "Escriba un correo válido, por ejemplo avisos@suempresa.mx." })]),
    hideControls: z.boolean({ error: "Indique sí o no." }),
  }),
  smtp: z.object({
    enabled: z.boolean({ error: "Indique sí o no." }),
    host: text(255),
    port: z.number({ error: "Escriba el puerto como número, por ejemplo 587." }).int("El puerto es un número entero.").min(1, "El puerto va de 1 a 65535.").max(65_535, "El puerto va de 1 a 65535."),
    username: text(255),
    password: z.string({ error: "Escriba la contraseña." }).max(1000, "La contraseña es demasiado larga."),
    authMethod: z.enum(["", "PLAIN", "LOGIN"], { error: "Elija PLAIN o LOGIN." }),
    tls: z.boolean({ error: "Indique sí o no." }),
    localName: text(255),
  }),
  backups: z.object({
    cron: z.string({ error: "Escriba la programación en formato cron." }).trim().refine(isCronExpression, "Escriba cinco campos de cron en hora UTC, por ejemplo 0 9 * * * (cada día a las 9 UTC, las 3 de la mañana en la Ciudad de México), o déjelo vacío."),
    cronMaxKeep: z.number({ error: "Escriba cuántos respaldos programados se conservan." }).int("Escriba un número entero.").min(1, "Conserve al menos 1 respaldo.").max(365, "Conserve como máximo 365 respaldos."),
    // Where backups are kept: this bucket (under "backups/") when enabled, else DATA_DIR/backups.
    s3: S3SettingsSchema,
  }),
  // Where stored files are kept when enabled (under "files/"); else on disk or in the database.
  s3: S3SettingsSchema,
  logs: z.object({
    maxDays: z.number({ error: "Escriba los días que se conservan los registros." }).int("Escriba un número entero de días.").min(0, "Los días van de 0 a 3650.").max(3650, "Los días van de 0 a 3650."),
  }),
  // The per-connection limits of sign-in and the public forms (0065).
  rateLimits: RateLimitsSettingsSchema,
});

export type Settings = z.output<typeof SettingsSchema>;

/** Values only written, never answered (PocketBase omits them too); a PATCH without them keeps them. Dotted paths, any depth. */
export const SECRET_PATHS = ["smtp.password", "s3.secret", "backups.s3.secret"] as const;

export const DEFAULT_SETTINGS: Settings = {
  meta: { appName: "Forja", appURL: "http://localhost:3000", senderName: "", senderAddress: "", hideControls: false },
  smtp: { enabled: false, host: "", port: 587, username: "", password: "", authMethod: "", tls: false, localName: "" },
  // 9:00 UTC is 3:00 in Mexico City: the quietest hour of the shop's site.
  backups: { cron: "0 9 * * *", cronMaxKeep: 7, s3: DEFAULT_S3_SETTINGS },
  s3: DEFAULT_S3_SETTINGS,
  logs: { maxDays: 7 },
  rateLimits: DEFAULT_RATE_LIMITS,
};

/** A setting (a dotted path, or a whole section) and the environment variable that fixes it. */
export type EnvironmentOverrides = Readonly<Record<string, string>>;
