import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import PostalMime, { type Email } from "postal-mime";

// A real SMTP server on loopback for tests (ARCHITECTURE §7): it accepts every message and keeps
// the raw source, parsed with postal-mime. Not used by the app itself.
//
// With `mailDir`, every message is also written there as `<sequence>.eml` (renamed into place once
// complete), so other processes — Playwright's workers — can read what arrived.

export interface ReceivedMail {
  raw: string;
  envelopeTo: string[];
  parsed: Email;
}

export interface SmtpTestServer {
  /** The port, fixed after the first start so the server can be restarted at the same address. */
  readonly port: number;
  /** smtp://127.0.0.1:<port> — what SMTP_URL should be set to. */
  readonly url: string;
  readonly received: ReceivedMail[];
  readonly running: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once at least `count` messages arrived; rejects after timeoutMs. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Mail to `to` with `subject`, once there are at least `count` of them (newest last); rejects after timeoutMs. */
  mailsTo(to: string, subject: string, count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

export interface SmtpTestServerOptions {
  /** Directory to write each received message to, as a complete `.eml` file. */
  mailDir?: string;
}

export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  let port = 0;
  let sequence = 0;
  if (options.mailDir) fs.mkdirSync(options.mailDir, { recursive: true });

  /** Writes to a temporary name first: a reader never sees half a message. */
  const saveToDir = async (raw: string) => {
    if (!options.mailDir) return;
    sequence += 1;
    const name = `${Date.now()}-${String(sequence).padStart(6, "0")}-${process.pid}`;
    const temporary = path.join(options.mailDir, `.${name}.tmp`);
    await fs.promises.writeFile(temporary, raw);
    await fs.promises.rename(temporary, path.join(options.mailDir, `${name}.eml`));
  };
  let server: SMTPServer | undefined;
  const received: ReceivedMail[] = [];
  const pending: Promise<void>[] = [];

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = new SMTPServer({
        authOptional: true,
        // Plain SMTP on loopback: STARTTLS with the built-in self-signed certificate would be refused.
        disabledCommands: ["STARTTLS"],
        logger: false,
        closeTimeout: 1_000,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8");
            const envelopeTo = session.envelope.rcptTo.map((address) => address.address);
            const parsing = Promise.all([PostalMime.parse(raw), saveToDir(raw)]).then(([parsed]) => {
              received.push({ raw, envelopeTo, parsed });
            });
            pending.push(parsing);
            parsing.then(() => callback(), callback);
          });
        },
      });
      next.on("error", () => {}); // a client dropping its connection is not a test failure
      const onError = (error: Error) => reject(error);
      next.server.once("error", onError);
      next.listen(port, "127.0.0.1", () => {
        next.server.off("error", onError);
        const address = next.server.address();
        if (address && typeof address === "object") port = address.port;
        server = next;
        resolve();
      });
    });

  await listen();

  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    received,
    get running() {
      return server !== undefined;
    },
    start: async () => {
      if (!server) await listen();
    },
    stop: async () => {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async waitForMessages(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} message(s), received ${received.length} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(pending);
      return received;
    },
    async mailsTo(to, subject, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.filter((mail) => mail.envelopeTo.includes(to) && mail.parsed.subject === subject);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`expected ${count} "${subject}" mail(s) to ${to}, got ${found.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
