import fs from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// DATA_DIR must be set before ~/lib/env.server is first read (getEnv() caches it).
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("mail"));

const { closeTestDatabase, createTestDatabase } = await import("../../../tests/support/test-database");
const { deliverDueMail, enqueueMail } = await import("./outbox.server");
const { renderEmail } = await import("./templates.server");
const { getSiteFacts } = await import("~/features/site/site-facts.server");
const { closeMailTransport } = await import("./transport.server");

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  closeMailTransport();
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("mail without SMTP_URL", () => {
  it("writes each message as an .eml file under DATA_DIR/mail", async () => {
    const email = renderEmail({ preheader: "Restablezca su contraseña", heading: "Restablecer contraseña", paragraphs: ["Use este enlace una sola vez."], action: { label: "Elegir contraseña nueva", url: "https://forja.example/cuenta/restablecer?token=xyz" } }, await getSiteFacts());
    const { id } = await enqueueMail({ to: "cliente@example.com", subject: "Restablezca su contraseña · Forja", ...email });

    expect(await deliverDueMail({ now: new Date(Date.now() + 1) })).toMatchObject({ claimed: 1, sent: 1 });

    const mailDir = path.join(path.resolve(dataDir), "mail");
    const files = fs.readdirSync(mailDir);
    expect(files).toEqual([`${id}.eml`]);
    const parsed = await PostalMime.parse(fs.readFileSync(path.join(mailDir, files[0])));
    expect(parsed.subject).toBe("Restablezca su contraseña · Forja");
    expect(parsed.to?.[0]).toMatchObject({ address: "cliente@example.com" });
    expect(parsed.html).toContain("Restablecer contraseña");
    expect(parsed.text).toContain("https://forja.example/cuenta/restablecer?token=xyz");
  });
});
