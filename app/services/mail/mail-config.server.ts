import path from "node:path";
import { z } from "~/lib/zod";
import { getEnv } from "~/lib/env.server";
import { getSettings } from "~/services/settings/settings.server";
import type { Settings } from "~/services/settings/settings-schema";

// Mail settings read from the environment. They live here (not in env.server.ts) because only the
// mail feature uses them; they are read on every call so a changed environment (tests, a reload) is
// seen without restarting the process, and parsed again only when they changed (getMailConfig).

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
  /** The From header of every message when MAIL_FROM sets it; otherwise the business's name and sales address (mailSender). */
  from?: string;
  /** Where .eml files are written when there is no SMTP server: DATA_DIR/mail. */
  mailDir: string;
  /** Recipients of staff notifications set by MAIL_STAFF_TO; empty means the sales address (staffRecipientsFor). */
  staffRecipients: readonly string[];
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
    from: env.MAIL_FROM,
    mailDir: path.join(dataDir, "mail"),
    staffRecipients: env.MAIL_STAFF_TO,
  };
}

/** The last parse and the values it was made from (each new request and message asks: 0076). */
let lastParsed: { key: string; config: MailConfig } | undefined;

export function getMailConfig(): MailConfig {
  const { SMTP_URL, MAIL_FROM, MAIL_STAFF_TO } = process.env;
  const dataDir = getEnv().dataDir;
  // JSON keeps "unset" and "empty" apart, and no value can run into the next one.
  const key = JSON.stringify([SMTP_URL, MAIL_FROM, MAIL_STAFF_TO, dataDir]);
  if (lastParsed?.key !== key) {
    const config = parseMailConfig({ SMTP_URL, MAIL_FROM, MAIL_STAFF_TO }, dataDir);
    // Shared by every caller from now on: frozen, so no caller can change it for the others.
    Object.freeze(config.staffRecipients);
    lastParsed = { key, config: Object.freeze(config) };
  }
  return lastParsed.config;
}

/** An SMTP URL (as SMTP_URL is written) from the settings' `smtp` section. */
export function smtpUrlOf(smtp: Settings["smtp"]): string {
  const auth = smtp.username ? `${encodeURIComponent(smtp.username)}${smtp.password ? `:${encodeURIComponent(smtp.password)}` : ""}@` : "";
  const options = new URLSearchParams();
  if (smtp.authMethod) options.set("authMethod", smtp.authMethod);
  if (smtp.localName) options.set("name", smtp.localName);
  const query = options.size ? `?${options}` : "";
  return `${smtp.tls ? "smtps" : "smtp"}://${auth}${smtp.host}:${smtp.port}${query}`;
}

/**
 * The configuration with the technical settings (docs/decisions/0057) where the environment leaves
 * a value open: the SMTP server when SMTP_URL is not set, the sender when MAIL_FROM is not.
 */
export function withMailSettings(config: MailConfig, settings: Pick<Settings, "smtp" | "meta">): MailConfig {
  const smtpUrl = config.smtpUrl ?? (settings.smtp.enabled && settings.smtp.host ? smtpUrlOf(settings.smtp) : undefined);
  const address = settings.meta.senderAddress;
  const from = config.from ?? (address ? (settings.meta.senderName ? senderHeader(settings.meta.senderName, address) : address) : undefined);
  return { ...config, smtpUrl, from };
}

/** The configuration in effect now: the environment, then the settings (read at the time of sending). */
export async function currentMailConfig(): Promise<MailConfig> {
  return withMailSettings(getMailConfig(), await getSettings());
}

/** Who receives staff notifications: MAIL_STAFF_TO, or else the sales address of the business facts. */
export function staffRecipientsFor(facts: { email: string }, config: MailConfig = getMailConfig()): readonly string[] {
  return config.staffRecipients.length > 0 ? config.staffRecipients : [facts.email];
}

// The business's name and sales address as the sender, from the `ajustes` record (docs/decisions/0047).
// A service imports no feature: the start-up wiring hands in how to read them (app/hooks.server.ts).
type SenderSource = () => Promise<{ name: string; email: string }>;
let senderSource: SenderSource | undefined;

export function registerMailSender(source: SenderSource): void {
  senderSource = source;
}

/** The From header: MAIL_FROM when set, else «Name <sales address>» read at the time of sending. */
export async function mailSender(config: MailConfig = getMailConfig()): Promise<string> {
  if (config.from) return config.from;
  if (!senderSource) throw new Error("Falta MAIL_FROM y no hay datos de la empresa para el remitente (registerMailSender).");
  const { name, email } = await senderSource();
  return senderHeader(name, email);
}

/** «"Name" <address>», quoted: a name with a comma or a period («S.A. de C.V.») is still one display name. */
function senderHeader(name: string, email: string): string {
  return `"${name.replace(/["\\]/g, "")}" <${email}>`;
}
