import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { getDb, type Database } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { CLAIM_LEASE_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, deliverDueMail, enqueueMail, enqueueMails, outboxSummary, renderedMail, retryFailedMail, startMailWorker } from "./outbox.server";
import { startSmtpTestServer, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { getSiteFacts } from "~/features/site/site-facts.server";
import { renderEmail } from "./templates.server";
import { closeMailTransport } from "./transport.server";

// Real database (fresh per file) and a real SMTP server on loopback; time is passed as `now`.

let database: Database | undefined;
let smtp: SmtpTestServer;
const savedSmtpUrl = process.env.SMTP_URL;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpTestServer();
  process.env.SMTP_URL = smtp.url;
});

afterAll(async () => {
  closeMailTransport();
  await smtp?.stop();
  await closeTestDatabase(database);
  if (savedSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtpUrl;
});

beforeEach(async () => {
  await smtp.start();
  smtp.received.length = 0;
  await getDb().delete(outbox);
});

const seconds = (n: number) => n * 1_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

async function rowOf(id: string) {
  const [row] = await getDb().select().from(outbox).where(eq(outbox.id, id));
  return row;
}

async function welcomeEmail(name: string) {
  return renderEmail({
    preheader: "Su cuenta en Forja está casi lista",
    heading: `Bienvenido, ${name}`,
    paragraphs: ["Confirme su correo para terminar de crear su cuenta."],
    action: { label: "Confirmar correo", url: "https://forja.example/cuenta/confirmar?token=t0k3n" },
  }, await getSiteFacts());
}

describe("outbox delivery over SMTP", () => {
  it("delivers an enqueued message with Spanish HTML and text parts", async () => {
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Confirme su correo · Forja", ...await welcomeEmail("Ana"), replyTo: "ventas@forja.example" });
    expect((await rowOf(id)).status).toBe("pending");

    const report = await deliverDueMail({ now: later(new Date(), 1) });
    expect(report).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });

    const [mail] = await smtp.waitForMessages(1);
    expect(mail.envelopeTo).toEqual(["cliente@example.com"]);
    expect(mail.parsed.to?.map((address) => ("address" in address ? address.address : undefined))).toEqual(["cliente@example.com"]);
    expect(mail.parsed.subject).toBe("Confirme su correo · Forja");
    expect(mail.parsed.from).toMatchObject({ name: "Forja Diseño y Manufactura", address: "ventas@forja.example" });
    expect(mail.parsed.replyTo?.[0]).toMatchObject({ address: "ventas@forja.example" });
    expect(mail.parsed.messageId).toBe(`<${id}@forja.example>`);
    expect(mail.parsed.html).toContain('lang="es-MX"');
    expect(mail.parsed.html).toContain("Bienvenido, Ana");
    expect(mail.parsed.text).toContain("Confirme su correo para terminar de crear su cuenta.");
    expect(mail.parsed.text).toContain("https://forja.example/cuenta/confirmar?token=t0k3n");

    const row = await rowOf(id);
    expect(row.status).toBe("sent");
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.lastError).toBeNull();
  });

  it("writes a message given as content without rendering it, and sends it rendered as the layout renders it (0081)", async () => {
    const facts = await getSiteFacts();
    const content = {
      preheader: "Recibimos su solicitud SOL-2026-0042.",
      heading: "Recibimos su solicitud, Ana",
      paragraphs: ["Su número de solicitud es SOL-2026-0042.", "Archivos: soporte.step"],
      action: { label: "Ver mis cotizaciones", url: "https://forja.example/quotes" },
    };
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Solicitud de cotización SOL-2026-0042 recibida", content, facts });
    const written = await rowOf(id);
    expect(written).toMatchObject({ status: "pending", html: null, text: null, content: { content, facts: JSON.parse(JSON.stringify(facts)) } });
    expect(renderedMail(written)).toMatchObject(renderEmail(content, facts));

    expect(await deliverDueMail({ now: later(new Date(), 1) })).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.parsed.subject).toBe("Solicitud de cotización SOL-2026-0042 recibida");
    expect(mail.parsed.html).toContain('lang="es-MX"');
    expect(mail.parsed.html).toContain("Recibimos su solicitud, Ana");
    expect(mail.parsed.html).toContain('href="https://forja.example/quotes"');
    expect(mail.parsed.html).toContain(facts.phone.display);
    expect(mail.parsed.text).toContain("Archivos: soporte.step");
    expect(mail.parsed.text).toContain("https://forja.example/quotes");
    expect((await rowOf(id)).status).toBe("sent");
  });

  it("refuses content it could not render when it is written, and a row with neither body nor content", async () => {
    const facts = await getSiteFacts();
    const content = { preheader: "x", heading: "Hola", paragraphs: ["Texto"], action: { label: "Abrir", url: "javascript:alert(1)" } };
    await expect(enqueueMail({ to: "cliente@example.com", subject: "Enlace", content, facts })).rejects.toThrow(/http/);
    await expect(enqueueMail({ to: "cliente@example.com", subject: "Vacío", html: "", text: "" })).rejects.toThrow(/HTML y su texto/);
    await expect(getDb().insert(outbox).values({ to: "cliente@example.com", subject: "Sin cuerpo" })).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23514" }) });
    expect(await getDb().select().from(outbox)).toEqual([]);
  });

  it("keeps the message when the SMTP server is down and delivers it once after a restart", async () => {
    await smtp.stop();
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Solicitud recibida", ...await welcomeEmail("Luis") });
    const t0 = later(new Date(), 1);

    expect(await deliverDueMail({ now: t0 })).toEqual({ claimed: 1, sent: 0, retried: 1, failed: 0 });
    const pending = await rowOf(id);
    expect(pending.status).toBe("pending");
    expect(pending.attempts).toBe(1);
    expect(pending.lastError).toMatch(/ECONNREFUSED/);
    expect(pending.nextAttemptAt.getTime()).toBe(t0.getTime() + RETRY_DELAYS_MS[0]);
    expect(pending.sentAt).toBeNull();

    // Not due yet: nothing is claimed before the backoff has elapsed.
    expect((await deliverDueMail({ now: later(t0, seconds(10)) })).claimed).toBe(0);

    await smtp.start(); // same port, same SMTP_URL
    expect(await deliverDueMail({ now: later(t0, RETRY_DELAYS_MS[0] + 1) })).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    expect(await deliverDueMail({ now: later(t0, RETRY_DELAYS_MS[0] + seconds(60)) })).toEqual({ claimed: 0, sent: 0, retried: 0, failed: 0 });

    const received = await smtp.waitForMessages(1);
    expect(received).toHaveLength(1);
    expect(received[0].parsed.subject).toBe("Solicitud recibida");
    const sent = await rowOf(id);
    expect(sent.status).toBe("sent");
    expect(sent.attempts).toBe(2);
  });

  it("backs off exponentially and marks the message failed after the last attempt", async () => {
    await smtp.stop();
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Nunca llega", html: "<p>x</p>", text: "x" });
    let now = later(new Date(), 1);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const report = await deliverDueMail({ now });
      expect(report.claimed).toBe(1);
      const row = await rowOf(id);
      expect(row.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(row.status).toBe("pending");
        delays.push(row.nextAttemptAt.getTime() - now.getTime());
        now = row.nextAttemptAt;
      }
    }
    expect(delays).toEqual([...RETRY_DELAYS_MS]);
    expect(delays.every((delay, index) => index === 0 || delay > delays[index - 1])).toBe(true);

    const failed = await rowOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.attempts).toBe(MAX_ATTEMPTS);
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
    // A failed message is never picked up again.
    await smtp.start();
    expect((await deliverDueMail({ now: later(now, 365 * 24 * 3_600_000) })).claimed).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("never sends a message twice when several deliveries run at once", async () => {
    const count = 12;
    for (let index = 0; index < count; index += 1) {
      await enqueueMail({ to: `c${index}@example.com`, subject: `Mensaje ${index}`, html: `<p>${index}</p>`, text: `${index}` });
    }
    const now = later(new Date(), 1);
    const reports = await Promise.all([1, 2, 3, 4].map(() => deliverDueMail({ now, limit: 5 })));
    const sent = reports.reduce((sum, report) => sum + report.sent, 0);
    expect(sent).toBe(count);
    expect(reports.reduce((sum, report) => sum + report.claimed, 0)).toBe(count);

    const received = await smtp.waitForMessages(count);
    const subjects = received.map((mail) => mail.parsed.subject).sort();
    expect(new Set(subjects).size).toBe(count);
    expect(received).toHaveLength(count);

    const rows = await getDb().select().from(outbox);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("retries a message whose worker crashed after claiming it, once the lease has expired", async () => {
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Reclamado y abandonado", html: "<p>x</p>", text: "x" });
    const t0 = later(new Date(), 1);
    // What a claim does before the process dies: attempts + 1 and the lease, then nothing.
    await getDb()
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: later(t0, CLAIM_LEASE_MS) })
      .where(eq(outbox.id, id));

    expect((await deliverDueMail({ now: later(t0, CLAIM_LEASE_MS - 1) })).claimed).toBe(0);
    expect(await deliverDueMail({ now: later(t0, CLAIM_LEASE_MS) })).toMatchObject({ claimed: 1, sent: 1 });
    await smtp.waitForMessages(1);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("enqueueMail", () => {
  it("commits and rolls back with the caller's transaction", async () => {
    await expect(
      getDb().transaction(async (tx) => {
        await enqueueMail({ to: "a@example.com", subject: "Revertido", html: "<p>x</p>", text: "x" }, { tx });
        throw new Error("el formulario falló");
      }),
    ).rejects.toThrow("el formulario falló");
    expect(await getDb().select().from(outbox)).toHaveLength(0);

    const id = await getDb().transaction(async (tx) => (await enqueueMail({ to: ["a@example.com", "b@example.com"], subject: "Confirmado", html: "<p>x</p>", text: "x" }, { tx })).id);
    expect(await rowOf(id)).toMatchObject({ to: "a@example.com, b@example.com", subject: "Confirmado", status: "pending", attempts: 0 });
  });

  it("writes several messages in one call, each with its own fields, ids in the order given; one bad message writes none", async () => {
    const ids = await getDb().transaction(async (tx) =>
      enqueueMails(
        [
          { to: "cliente@example.com", subject: "Recibida", html: "<p>a</p>", text: "a" },
          { to: ["ventas@example.com", "planta@example.com"], replyTo: "cliente@example.com", subject: "Nueva", html: "<p>b</p>", text: "b" },
        ],
        { tx },
      ),
    );
    expect(ids).toHaveLength(2);
    expect(await rowOf(ids[0]!.id)).toMatchObject({ to: "cliente@example.com", subject: "Recibida", replyTo: null, text: "a", status: "pending", attempts: 0 });
    expect(await rowOf(ids[1]!.id)).toMatchObject({ to: "ventas@example.com, planta@example.com", subject: "Nueva", replyTo: "cliente@example.com", text: "b", status: "pending" });

    await expect(
      enqueueMails([
        { to: "a@example.com", subject: "Bien", html: "<p>x</p>", text: "x" },
        { to: "b@example.com", subject: "Mal\nBcc: x@example.com", html: "<p>x</p>", text: "x" },
      ]),
    ).rejects.toThrow();
    expect(await getDb().select().from(outbox)).toHaveLength(2);
    expect(await enqueueMails([])).toEqual([]);
  });

  it("rejects a subject with a line break (header injection)", async () => {
    await expect(enqueueMail({ to: "a@example.com", subject: "Hola\r\nBcc: x@example.com", html: "<p>x</p>", text: "x" })).rejects.toThrow();
    expect(await getDb().select().from(outbox)).toHaveLength(0);
  });
});

describe("startMailWorker", () => {
  it("delivers at once when nudged, never overlaps and stop() waits for the batch in flight", async () => {
    const worker = startMailWorker({ intervalMs: 60_000 });
    try {
      await enqueueMail({ to: "cliente@example.com", subject: "Entrega inmediata", html: "<p>x</p>", text: "x" });
      const [mail] = await smtp.waitForMessages(1, 5_000);
      expect(mail.parsed.subject).toBe("Entrega inmediata");

      // Several nudges in a row while a batch runs: each message still goes out exactly once.
      await Promise.all([1, 2, 3].map((n) => enqueueMail({ to: "cliente@example.com", subject: `Ráfaga ${n}`, html: "<p>x</p>", text: "x" })));
      await smtp.waitForMessages(4, 5_000);
    } finally {
      await worker.stop();
    }
    const rows = await getDb().select().from(outbox);
    expect(rows.map((row) => row.status)).toEqual(["sent", "sent", "sent", "sent"]);
    expect(smtp.received).toHaveLength(4);

    // Once stopped, nothing is delivered any more.
    await enqueueMail({ to: "cliente@example.com", subject: "Después de parar", html: "<p>x</p>", text: "x" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.received).toHaveLength(4);
  });
});

describe("retryFailedMail", () => {
  it("puts failed mail back in the queue, due now, and it is delivered; sent and pending mail stay as they were", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    const failed = await enqueueMail({ to: "cliente@example.com", subject: "Falló antes", html: "<p>x</p>", text: "x" });
    const sent = await enqueueMail({ to: "cliente@example.com", subject: "Ya enviado", html: "<p>x</p>", text: "x" });
    const waiting = await enqueueMail({ to: "cliente@example.com", subject: "En espera", html: "<p>x</p>", text: "x" });
    const future = later(now, seconds(3600));
    await getDb().update(outbox).set({ status: "failed", attempts: MAX_ATTEMPTS, lastError: "Error: connect ECONNREFUSED" }).where(eq(outbox.id, failed.id));
    await getDb().update(outbox).set({ status: "sent", sentAt: now }).where(eq(outbox.id, sent.id));
    await getDb().update(outbox).set({ nextAttemptAt: future }).where(eq(outbox.id, waiting.id));

    const before = await outboxSummary();
    expect(before).toMatchObject({ pending: 1, failed: 1 });
    expect(before.failedMessages.map((row) => [row.subject, row.lastError])).toEqual([["Falló antes", "Error: connect ECONNREFUSED"]]);

    expect(await retryFailedMail(now)).toBe(1);
    expect(await rowOf(failed.id)).toMatchObject({ status: "pending", nextAttemptAt: now, attempts: MAX_ATTEMPTS });
    expect(await rowOf(sent.id)).toMatchObject({ status: "sent" });
    expect(await rowOf(waiting.id)).toMatchObject({ status: "pending", nextAttemptAt: future });
    expect(await outboxSummary()).toMatchObject({ pending: 2, failed: 0, failedMessages: [] });

    // Due at once: the next delivery sends it (the waiting one is not due yet).
    expect(await deliverDueMail({ now })).toMatchObject({ claimed: 1, sent: 1 });
    expect(await rowOf(failed.id)).toMatchObject({ status: "sent" });
    expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(["Falló antes"]);

    // Nothing failed: nothing to requeue.
    expect(await retryFailedMail(now)).toBe(0);
  });
});
