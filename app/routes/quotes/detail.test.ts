import fs from "node:fs";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The customer's quote pages below the HTTP server: real sessions (better-auth), a real database,
// quotes made by the domain functions. Loaders and the action are called the way React Router
// calls them, with real Requests and cookies.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("quote-pages"));

import { getQuoteForStaff } from "~/features/quotes/read.server";
import { clientIpContext } from "~/lib/request-context";
import { registeredCustomer, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { INTERNAL_NOTE, createTestQuote } from "../../../tests/support/quote-fixtures";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { action, loader as detailLoader } from "./detail";
import { loader as listLoader } from "./list";

const CLIENT_IP = "203.0.113.7";
const USER_AGENT = "Mozilla/5.0 (prueba de Forja)";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
const owner = { id: "", name: "Mariana Cervantes", email: `mariana-${process.pid}@ejemplo.mx`, cookie: "" };
const other = { id: "", cookie: "" };
let staffCookie = "";

async function customer(name: string, email: string) {
  return registeredCustomer(name, email);
}

beforeAll(async () => {
  database = await createTestDatabase();
  Object.assign(owner, await customer(owner.name, owner.email));
  Object.assign(other, await customer("Otro Cliente", `otro-${process.pid}@ejemplo.mx`));
  const staffEmail = `personal-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(staffEmail);
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ownersQuote = () => createTestQuote({ name: owner.name, email: owner.email, company: "Ensambles del Bajío", userId: owner.id });

function args(url: string, cookie: string | undefined, params: Record<string, string> = {}, form?: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, CLIENT_IP);
  const headers: Record<string, string> = { "user-agent": USER_AGENT };
  if (cookie) headers.cookie = cookie;
  const request = form
    ? new Request(`http://localhost${url}`, { method: "POST", headers, body: new URLSearchParams(form) })
    : new Request(`http://localhost${url}`, { headers });
  return { request, context, params, unstable_pattern: "" } as never;
}

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a thrown response");
}

const statusOf = (error: unknown) => (error instanceof Response ? error.status : (error as { init?: { status?: number } }).init?.status);

/** What a `data(…, { status })` return carries. */
function dataResult(value: unknown): { status: number; data: { intent: string | null; refusal?: string; result?: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } } } {
  const result = value as { init?: { status?: number }; data: never };
  return { status: result.init?.status ?? 200, data: result.data };
}

describe("/quotes", () => {
  it("lists only the signed-in customer's sent quotes", async () => {
    const quote = await ownersQuote();
    await createTestQuote({ name: owner.name, email: owner.email, userId: owner.id }, { send: false });
    const mine = await listLoader(args("/quotes", owner.cookie));
    const row = mine.quotes.find((item) => item.id === quote.id);
    expect(row).toMatchObject({ number: quote.number, status: "enviada", totalCentavos: quote.totalCentavos });
    expect(mine.quotes.every((item) => item.status !== "borrador")).toBe(true);

    const theirs = await listLoader(args("/quotes", other.cookie));
    expect(theirs.quotes).toEqual([]);
  });

  it("sends a guest to sign in and back", async () => {
    const response = (await thrown(() => listLoader(args("/quotes", undefined)))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fquotes");
  });
});

describe("/quotes/:id loader", () => {
  it("shows the owner the sent revision, without staff-only data", async () => {
    const quote = await ownersQuote();
    const page = await detailLoader(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }));
    expect(page.quote).toMatchObject({ id: quote.id, number: quote.number, status: "enviada" });
    expect(page.revision).toMatchObject({ revision: 1, totalCentavos: quote.totalCentavos, leadTimeDays: 12 });
    expect(page.revision.lines).toHaveLength(2);
    expect(page.notice).toBeNull();
    const shipped = JSON.stringify(page);
    expect(shipped).not.toContain(INTERNAL_NOTE);
    expect(shipped).not.toContain("acceptedIp");
    expect(shipped).not.toContain("createdById");
  });

  it("answers 404 — never 403 — to another customer, to staff on this page, and for drafts or bad ids", async () => {
    const quote = await ownersQuote();
    const draft = await createTestQuote({ name: owner.name, email: owner.email, userId: owner.id }, { send: false });
    for (const [cookie, id] of [
      [other.cookie, quote.id],
      [owner.cookie, draft.id],
      [owner.cookie, "00000000-0000-4000-8000-000000000000"],
      [owner.cookie, "nada"],
    ]) {
      expect(statusOf(await thrown(() => detailLoader(args(`/quotes/${id}`, cookie, { id }))))).toBe(404);
    }
  });

  it("sends a guest to sign in and back to the quote", async () => {
    const quote = await ownersQuote();
    const response = (await thrown(() => detailLoader(args(`/quotes/${quote.id}`, undefined, { id: quote.id })))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/quotes/${quote.id}`)}`);
  });

  it("shows the success notice named by ?ok= and ignores unknown ones", async () => {
    const quote = await ownersQuote();
    const page = await detailLoader(args(`/quotes/${quote.id}?ok=mensaje`, owner.cookie, { id: quote.id }));
    expect(page.notice).toMatch(/^Enviamos su mensaje/);
    const unknown = await detailLoader(args(`/quotes/${quote.id}?ok=<script>`, owner.cookie, { id: quote.id }));
    expect(unknown.notice).toBeNull();
  });
});

describe("/quotes/:id action", () => {
  it("keeps the values and explains each field when the acceptance is incomplete", async () => {
    const quote = await ownersQuote();
    const result = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "aceptar", fullName: "Mar" })));
    expect(result.status).toBe(400);
    expect(result.data.intent).toBe("aceptar");
    expect(result.data.result?.error?.fullName).toEqual(["Escriba su nombre completo como firma."]);
    expect(result.data.result?.error?.terms).toEqual(["Para aceptar debe confirmar que leyó las condiciones."]);
    expect(result.data.result?.initialValue).toMatchObject({ fullName: "Mar" });
    expect((await getQuoteForStaff(quote.id))?.quote.status).toBe("enviada");
  });

  it("accepts with the typed name, the client IP and the browser, then redirects with ?ok=aceptada", async () => {
    const quote = await ownersQuote();
    const form = { intent: "aceptar", fullName: "Mariana Cervantes Ruiz", terms: "on" };
    const response = (await thrown(() => action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, form)))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/quotes/${quote.id}?ok=aceptada`);
    const stored = (await getQuoteForStaff(quote.id))!.quote;
    expect(stored).toMatchObject({ status: "aceptada", acceptedName: "Mariana Cervantes Ruiz", acceptedIp: CLIENT_IP, acceptedUserAgent: USER_AGENT });

    // Twice is refused with a Spanish reason (409), the values are kept and nothing changes.
    const again = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { ...form, fullName: "Alguien Más Distinto" })));
    expect(again.status).toBe(409);
    expect(again.data.refusal).toBe("La cotización ya está aceptada.");
    expect(again.data.result?.initialValue).toMatchObject({ fullName: "Alguien Más Distinto" });
    expect((await getQuoteForStaff(quote.id))!.quote.acceptedName).toBe("Mariana Cervantes Ruiz");

    const rejected = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "rechazar", reason: "precio" })));
    expect(rejected.status).toBe(409);
    expect(rejected.data.refusal).toBe("Una cotización aceptada no puede pasar a rechazada.");
    expect((await getQuoteForStaff(quote.id))!.quote.status).toBe("aceptada");
  });

  it("refuses an expired quote with a message and leaves it as it was", async () => {
    const sentLongAgo = new Date(Date.now() - 45 * 24 * 60 * 60 * 1000);
    const quote = await createTestQuote({ name: owner.name, email: owner.email, userId: owner.id }, { now: sentLongAgo });
    const result = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "aceptar", fullName: "Mariana Cervantes", terms: "on" })));
    expect(result.status).toBe(409);
    expect(result.data.refusal).toBe("La cotización venció. Pídanos una revisión con precios vigentes.");
    expect((await getQuoteForStaff(quote.id))!.quote.acceptedName).toBeNull();
  });

  it("rejects with a reason from the list and an optional comment", async () => {
    const quote = await ownersQuote();
    const invalid = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "rechazar", reason: "capricho", note: "Muy caro" })));
    expect(invalid.status).toBe(400);
    expect(invalid.data.result?.error?.reason).toEqual(["Elija un motivo."]);
    expect(invalid.data.result?.initialValue).toMatchObject({ note: "Muy caro" });

    const response = (await thrown(() =>
      action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "rechazar", reason: "plazo", note: "Necesitamos entrega en 5 días" })),
    )) as Response;
    expect(response.headers.get("location")).toBe(`/quotes/${quote.id}?ok=rechazada`);
    expect((await getQuoteForStaff(quote.id))!.quote).toMatchObject({
      status: "rechazada",
      rejectedReason: "El plazo de entrega no nos funciona",
      rejectedNote: "Necesitamos entrega en 5 días",
    });
  });

  it("adds the customer's message to the thread", async () => {
    const quote = await ownersQuote();
    const empty = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "mensaje", body: " " })));
    expect(empty.status).toBe(400);
    expect(empty.data.result?.error?.body).toEqual(["Escriba su mensaje."]);

    const response = (await thrown(() =>
      action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "mensaje", body: "¿Pueden entregar en Celaya?" })),
    )) as Response;
    expect(response.headers.get("location")).toBe(`/quotes/${quote.id}?ok=mensaje#mensajes`);
    const page = await detailLoader(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }));
    expect(page.messages).toMatchObject([{ authorName: owner.name, fromStaff: false, body: "¿Pueden entregar en Celaya?" }]);
  });

  it("does nothing for anyone but the owner: 404, and the quote stays open", async () => {
    const quote = await ownersQuote();
    for (const cookie of [other.cookie, staffCookie]) {
      const error = await thrown(() => action(args(`/quotes/${quote.id}`, cookie, { id: quote.id }, { intent: "aceptar", fullName: "Intruso Cualquiera", terms: "on" })));
      expect(statusOf(error)).toBe(404);
    }
    const error = await thrown(() => action(args(`/quotes/${quote.id}`, other.cookie, { id: quote.id }, { intent: "mensaje", body: "Hola, soy otro" })));
    expect(statusOf(error)).toBe(404);
    const stored = await getQuoteForStaff(quote.id);
    expect(stored!.quote.status).toBe("enviada");
    expect(stored!.messages).toEqual([]);
  });

  it("answers an unknown intent with a 400 and a message", async () => {
    const quote = await ownersQuote();
    const result = dataResult(await action(args(`/quotes/${quote.id}`, owner.cookie, { id: quote.id }, { intent: "borrar" })));
    expect(result.status).toBe(400);
    expect(result.data.refusal).toMatch(/^No reconocimos esa acción/);
  });
});
