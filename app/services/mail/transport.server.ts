import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { logger } from "~/lib/logger.server";
import { currentMailConfig, getMailConfig, mailSender, type MailConfig } from "./mail-config.server";

// The one mail sender (ARCHITECTURE §3, §4). Only the outbox worker calls it; features enqueue.

export interface OutgoingMail {
  /** The outbox row id: makes the Message-ID and the .eml file name stable across retries. */
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string | null;
}

export interface SendResult {
  messageId: string;
  /** The .eml file written when no SMTP server is configured. */
  file?: string;
}

export interface MailTransport {
  kind: "smtp" | "file";
  send(mail: OutgoingMail): Promise<SendResult>;
  close(): void;
}

// Short timeouts: a hung server must fail the attempt (and be retried) well inside the claim lease.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 };

function messageIdFor(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "forja.local";
  return `<${id}@${domain}>`;
}

function toNodemailer(mail: OutgoingMail, from: string) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    replyTo: mail.replyTo ?? undefined,
    messageId: messageIdFor(mail.id, from),
  };
}

export function createMailTransport(config: MailConfig): MailTransport {
  if (config.smtpUrl) {
    const transporter = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      kind: "smtp",
      async send(mail) {
        const info = await transporter.sendMail(toNodemailer(mail, await mailSender(config)));
        return { messageId: info.messageId };
      },
      close: () => transporter.close(),
    };
  }

  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "file",
    async send(mail) {
      const info = await transporter.sendMail(toNodemailer(mail, await mailSender(config)));
      await fs.mkdir(config.mailDir, { recursive: true });
      // Named by outbox id, so a retried message overwrites its own file instead of duplicating it.
      const file = path.join(config.mailDir, `${mail.id}.eml`);
      const temp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temp, info.message as Buffer);
      await fs.rename(temp, file);
      logger.info({ outboxId: mail.id, subject: mail.subject, file }, "Correo guardado como archivo .eml (SMTP_URL no está configurado)");
      return { messageId: info.messageId, file };
    },
    close: () => transporter.close(),
  };
}

// One transport per process, rebuilt when the configuration changes.
let current: { key: string; transport: MailTransport } | undefined;

export function getMailTransport(config: MailConfig = getMailConfig()): MailTransport {
  const key = JSON.stringify([config.smtpUrl ?? null, config.from, config.mailDir]);
  if (current?.key !== key) {
    current?.transport.close();
    current = { key, transport: createMailTransport(config) };
  }
  return current.transport;
}

export function closeMailTransport(): void {
  current?.transport.close();
  current = undefined;
}

/**
 * Sends one message now, outside the outbox, and lets a failure through: the settings' test email
 * (docs/decisions/0057), whose point is to tell the operator at once whether the server works.
 */
export async function sendNow(mail: Omit<OutgoingMail, "id">): Promise<SendResult> {
  return getMailTransport(await currentMailConfig()).send({ id: randomUUID(), ...mail });
}
