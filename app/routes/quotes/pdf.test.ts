import fs from "node:fs";
import { RouterContextProvider } from "react-router";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The PDF route's authorization matrix with real sessions and a real database: the guest signs in
// first, the owner and staff download it, any other customer gets a 404.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("quote-pdf-route"));

import { formatMoney } from "~/lib/format";
import { clientIpContext } from "~/lib/request-context";
import { registeredCustomer, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { loader } from "./pdf";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const owner = { id: "", name: "Mariana Cervantes", email: `mariana-pdf-${process.pid}@ejemplo.mx`, cookie: "" };
let otherCookie = "";
let staffCookie = "";
let sent = { id: "", number: "", totalCentavos: 0 };
let draft = { id: "", number: "", totalCentavos: 0 };

async function customer(name: string, email: string) {
  return registeredCustomer(name, email);
}

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(owner, await customer(owner.name, owner.email));
  otherCookie = (await customer("Otro Cliente", `otro-pdf-${process.pid}@ejemplo.mx`)).cookie;
  const staffEmail = `personal-pdf-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(staffEmail);
  sent = await createTestQuote({ name: owner.name, email: owner.email, userId: owner.id });
  draft = await createTestQuote({ name: owner.name, email: owner.email, userId: owner.id }, { send: false });
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function args(id: string, cookie: string | undefined) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, "127.0.0.1");
  const request = new Request(`http://localhost/quotes/${id}/pdf`, { headers: cookie ? { cookie } : {} });
  return { request, context, params: { id }, unstable_pattern: "" } as never;
}

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the loader to throw");
}

async function textOf(response: Response): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.arrayBuffer())), { mergePages: true });
  return text;
}

describe("/quotes/:id/pdf", () => {
  it("sends a guest to sign in and back to the PDF", async () => {
    const response = (await thrown(() => loader(args(sent.id, undefined)))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/quotes/${sent.id}/pdf`)}`);
  });

  it("gives the owner a private, uncached PDF download named after the quote", async () => {
    const response = (await loader(args(sent.id, owner.cookie))) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${sent.number}.pdf"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(sent.number).toMatch(/^COT-\d{4}-\d{4}$/);
    const text = await textOf(response);
    expect(text).toContain(sent.number);
    expect(text).toContain(formatMoney(sent.totalCentavos));
    expect(text).not.toContain("BORRADOR");
  });

  it("answers 404 to another customer and to the owner for a quote not sent yet", async () => {
    for (const [id, cookie] of [
      [sent.id, otherCookie],
      [draft.id, owner.cookie],
      ["nada", owner.cookie],
    ]) {
      const error = (await thrown(() => loader(args(id, cookie)))) as { init?: { status?: number } };
      expect(error.init?.status).toBe(404);
    }
  });

  it("gives staff any quote, a draft marked BORRADOR", async () => {
    const response = (await loader(args(sent.id, staffCookie))) as Response;
    expect(response.status).toBe(200);
    expect(await textOf(response)).toContain(sent.number);

    const preview = (await loader(args(draft.id, staffCookie))) as Response;
    expect(preview.status).toBe(200);
    const text = await textOf(preview);
    expect(text).toContain(draft.number);
    expect(text).toContain("BORRADOR");
  });
});
