import path from "node:path";
import { z } from "~/lib/zod";
import { getEnv } from "~/lib/env.server";
import { siteConfig } from "~/services/site-config/site-config";

// Mail settings read from the environment. They live here (not in env.server.ts) because only the
// mail feature uses them; the values are parsed on every call so a changed environment (tests, a
// reload) is seen without restarting the process.

const DEFAULT_FROM = `${siteConfig.name} <${siteConfig.email}>`;

const emptyToUndefined = z.literal("").transform(() => undefined);

const MailEnvSchema = z.object({
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/, "debe empezar con smtp:// o smtps://, por ejemplo smtp://usuario:clave@smtp.example.com:587")
    .optional()
    .or(emptyToUndefined),
  MAIL_FROM: z.string().trim().min(3).optional().or(emptyToUndefined),
  // Comma-separated addresses that receive staff notifications (new requests, orders…).
  MAIL_STAFF_TO: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ message: "debe ser una lista de correos separada por comas" }))),
});

export interface MailConfig {
  /** SMTP server URL; absent means "write .eml files to mailDir". */
  smtpUrl?: string;
  /** The From header of every message. */
  from: string;
  /** Where .eml files are written when there is no SMTP server: DATA_DIR/mail. */
  mailDir: string;
  /** Recipients of staff notifications; defaults to the site's sales address. */
  staffRecipients: string[];
}

/** Parses mail settings; throws one readable Spanish error naming every bad variable. */
export function parseMailConfig(source: Record<string, string | undefined>, dataDir: string): MailConfig {
  const result = MailEnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "MAIL"}: ${issue.message}`);
    throw new Error(`Configuración de correo inválida en variables de entorno:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM ?? DEFAULT_FROM,
    mailDir: path.join(dataDir, "mail"),
    staffRecipients: env.MAIL_STAFF_TO.length > 0 ? env.MAIL_STAFF_TO : [siteConfig.email],
  };
}

export function getMailConfig(): MailConfig {
  return parseMailConfig(process.env, getEnv().dataDir);
}
