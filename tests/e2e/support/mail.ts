import fs from "node:fs";
import path from "node:path";
import PostalMime, { type Email } from "postal-mime";

// Reads what the test SMTP server (started by global-setup) received: one complete `.eml` file
// per message in E2E_MAIL_DIR. Messages are matched by recipient, so parallel tests never see
// each other's mail.

export interface ReceivedMail {
  file: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  parsed: Email;
}

const parsedByFile = new Map<string, Promise<ReceivedMail>>();

function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR no está definido: global-setup no inició el servidor SMTP de pruebas.");
  return dir;
}

function parseFile(file: string): Promise<ReceivedMail> {
  let parsing = parsedByFile.get(file);
  if (!parsing) {
    parsing = fs.promises.readFile(path.join(mailDir(), file)).then(async (raw) => {
      const parsed = await PostalMime.parse(raw);
      return {
        file,
        to: (parsed.to ?? []).map((address) => (address.address ?? "").toLowerCase()),
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
        html: parsed.html ?? "",
        parsed,
      };
    });
    parsedByFile.set(file, parsing);
  }
  return parsing;
}

/** Every message received so far for `to`, oldest first. */
export async function listMail(to: string, subject?: RegExp): Promise<ReceivedMail[]> {
  const files = (await fs.promises.readdir(mailDir())).filter((name) => name.endsWith(".eml")).sort();
  const mails = await Promise.all(files.map(parseFile));
  const address = to.toLowerCase();
  return mails.filter((mail) => mail.to.includes(address) && (!subject || subject.test(mail.subject)));
}

/** Resolves with the messages for `to` once there are at least `count`; fails after `timeoutMs`. */
export async function waitForMail(
  to: string,
  options: { subject?: RegExp; count?: number; timeoutMs?: number } = {},
): Promise<ReceivedMail[]> {
  const count = options.count ?? 1;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails = await listMail(to, options.subject);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) {
      throw new Error(`Se esperaban ${count} correo(s) para ${to}${options.subject ? ` (${options.subject})` : ""}; llegaron ${mails.length}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The absolute link in the message (plain text and HTML alike) whose path is `pathname`. */
export function linkInMail(mail: ReceivedMail, pathname: string): URL {
  const candidates = [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
    .map((match) => new URL(match[0].replace(/&amp;/g, "&")))
    .filter((url) => url.pathname === pathname);
  if (candidates.length === 0) throw new Error(`El correo "${mail.subject}" no trae un enlace a ${pathname}.\n${mail.text}`);
  return candidates[0];
}
