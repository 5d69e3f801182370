import { describe, expect, it, vi } from "vitest";

// Quotes as the record API's `cotizaciones` and `mensajes` collections, through the engine, on a real
// database with quotes made by the feature's own commands: the rule is the pages' (a customer sees
// their own quotes once sent, and those quotes' messages; staff everything; a guest nothing), the
// status and total read as /quotes shows them, and filters never reach a field not listed.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-records"));

import { failureStatus, type Result } from "~/lib/result";
import type { RecordAuth } from "~/services/records/collection.server";
import { listRecords, viewRecord, type RecordJson } from "~/services/records/records.server";
import { T0, TOTAL_AB, LINE_A, aCustomer, draft, draftQuote, sentQuote, staff, useQuoteTestDatabase, value } from "../../../tests/support/quote-fixtures";
import { listQuotesForCustomer } from "./list.server";
import { reviseQuote } from "./lifecycle.server";
import { addQuoteMessage } from "./messages.server";
import { saveQuoteDraft } from "./draft.server";
import { getQuoteForCustomer } from "./read.server";
import { cotizacionesCollection, mensajesCollection } from "./record-collections.server";

useQuoteTestDatabase(dataDir);

const COLLECTIONS = [cotizacionesCollection, mensajesCollection];
const STAFF: RecordAuth = { collection: "_superusers", id: staff.id! };
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const list = async (collection: string, query: Record<string, string>, auth: RecordAuth) => {
  const result = await listRecords(COLLECTIONS, collection, new URLSearchParams(query), auth);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value;
};
const ids = async (collection: string, query: Record<string, string>, auth: RecordAuth) => (await list(collection, { sort: "created,id", ...query }, auth)).items.map((item) => item.id);
const view = (collection: string, id: string, auth: RecordAuth): Promise<Result<RecordJson>> => viewRecord(COLLECTIONS, collection, id, new URLSearchParams(), auth);
const statusOf = (result: Result<unknown>) => (result.ok ? 200 : failureStatus(result));

/** Two customers: the owner has a valid sent quote, an expired one and a draft; the other one sent quote. Messages on three. */
async function scene() {
  const now = new Date();
  const owner = await aCustomer("duena");
  const other = await aCustomer("otra");
  const valid = await sentQuote(owner.email, {}, new Date(now.getTime() - 60_000));
  const expired = await sentQuote(owner.email, { lines: [LINE_A] }, T0);
  const ownDraft = await draftQuote(owner.email);
  const others = await sentQuote(other.email, {}, new Date(now.getTime() - 60_000));
  value(await addQuoteMessage(valid.id, owner.actor, { body: "¿Pueden entregar en Celaya?", fromStaff: false }, new Date(now.getTime() - 30_000)));
  value(await addQuoteMessage(valid.id, staff, { body: "Sí, sin costo adicional.", fromStaff: true }, new Date(now.getTime() - 20_000)));
  value(await addQuoteMessage(ownDraft.id, staff, { body: "Borrador: aún no la ve el cliente.", fromStaff: true }));
  value(await addQuoteMessage(others.id, staff, { body: "Mensaje para la otra clienta.", fromStaff: true }));
  const asOwner: RecordAuth = { collection: "users", id: owner.id };
  return { owner, other, valid, expired, ownDraft, others, asOwner, asOther: { collection: "users", id: other.id } as RecordAuth };
}

describe("cotizaciones", () => {
  it("reads a quote as the customer's page shows it: number, effective status, sent total in pesos with IVA, validity, owner", async () => {
    const { owner, valid, expired, asOwner } = await scene();
    const result = await view("cotizaciones", valid.id, asOwner);
    if (!result.ok) throw new Error("not found");
    expect(result.value).toEqual({
      collectionId: "pbc_cotizaciones",
      collectionName: "cotizaciones",
      id: valid.id,
      created: expect.stringMatching(PB_DATE),
      updated: expect.stringMatching(PB_DATE),
      numero: valid.number,
      estado: "enviada",
      total: TOTAL_AB / 100,
      vigencia: expect.stringMatching(PB_DATE),
      cliente: owner.id,
      solicitud: "",
      pdf: `${valid.number}.pdf`,
    });
    const page = await listQuotesForCustomer(owner.id);
    expect(page.find((row) => row.id === valid.id)!.totalCentavos / 100).toBe(result.value.total);
    // Sent at T0 with 30 days of validity: "vencida" today, before the expiry job writes it, as on /quotes.
    const old = await view("cotizaciones", expired.id, asOwner);
    expect(old).toMatchObject({ ok: true, value: { estado: "vencida", total: 107.29 } });
    expect((await getQuoteForCustomer(expired.id, owner.id))!.quote.status).toBe("vencida");
    expect(await ids("cotizaciones", { filter: "estado = 'vencida'" }, asOwner)).toEqual([expired.id]);
    expect(await ids("cotizaciones", { filter: "estado = 'enviada'" }, asOwner)).toEqual([valid.id]);
  });

  it("shows staff every quote, a draft with its own total; a revision in preparation never changes the sent total", async () => {
    const { owner, valid, expired, ownDraft, others } = await scene();
    expect((await ids("cotizaciones", {}, STAFF)).sort()).toEqual([valid.id, expired.id, ownDraft.id, others.id].sort());
    expect(await view("cotizaciones", ownDraft.id, STAFF)).toMatchObject({ ok: true, value: { estado: "borrador", total: TOTAL_AB / 100, vigencia: "" } });
    value(await reviseQuote(valid.id, staff));
    value(await saveQuoteDraft(valid.id, draft(owner.email, { lines: [LINE_A] }), staff));
    for (const auth of [STAFF, { collection: "users", id: owner.id } as RecordAuth]) {
      expect(await view("cotizaciones", valid.id, auth)).toMatchObject({ ok: true, value: { total: TOTAL_AB / 100 } });
    }
  });

  it("shows a customer only their own sent quotes, whatever the filter", async () => {
    const { other, valid, expired, ownDraft, others, asOwner, asOther } = await scene();
    const own = [valid.id, expired.id].sort();
    expect((await ids("cotizaciones", {}, asOwner)).sort()).toEqual(own);
    expect((await list("cotizaciones", {}, asOwner)).totalItems).toBe(2);
    expect((await ids("cotizaciones", { filter: "cliente != ''" }, asOwner)).sort()).toEqual(own);
    expect((await ids("cotizaciones", { filter: "cliente = @request.auth.id" }, asOwner)).sort()).toEqual(own);
    expect(await ids("cotizaciones", { filter: `id = '${others.id}' || id = '${ownDraft.id}'` }, asOwner)).toEqual([]);
    expect(await ids("cotizaciones", { filter: `cliente = '${other.id}'` }, asOwner)).toEqual([]);
    expect(await ids("cotizaciones", { filter: "estado = 'borrador'" }, asOwner)).toEqual([]);
    expect(statusOf(await view("cotizaciones", others.id, asOwner))).toBe(404);
    expect(statusOf(await view("cotizaciones", ownDraft.id, asOwner))).toBe(404);
    expect(await ids("cotizaciones", {}, asOther)).toEqual([others.id]);
  });

  it("shows a guest nothing: an empty list and 404 for a record", async () => {
    const { valid } = await scene();
    expect(await list("cotizaciones", { filter: "numero != ''" }, null)).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
    expect(statusOf(await view("cotizaciones", valid.id, null))).toBe(404);
  });

  it("refuses filters and sorts on fields not listed (400) and sorts on listed ones", async () => {
    const { valid, expired, asOwner } = await scene();
    for (const filter of ["customerEmail != ''", "acceptedIp != ''", "customer_email ~ 'a'", "notes ~ 'margen'", "currentRevision > 0"]) {
      expect(statusOf(await listRecords(COLLECTIONS, "cotizaciones", new URLSearchParams({ filter }), STAFF))).toBe(400);
    }
    expect(statusOf(await listRecords(COLLECTIONS, "cotizaciones", new URLSearchParams({ sort: "acceptedUserAgent" }), STAFF))).toBe(400);
    expect(await ids("cotizaciones", { sort: "-total" }, asOwner)).toEqual([valid.id, expired.id]);
    expect(await ids("cotizaciones", { sort: "total" }, asOwner)).toEqual([expired.id, valid.id]);
    expect(await ids("cotizaciones", { sort: "vigencia" }, asOwner)).toEqual([expired.id, valid.id]);
    expect(await ids("cotizaciones", { filter: "total > 300 && total < 340" }, asOwner)).toEqual([valid.id]);
  });
});

describe("mensajes", () => {
  it("reads a message as the conversation shows it: the quote, the author's name, staff or customer, the text", async () => {
    const { owner, valid, asOwner } = await scene();
    const page = await list("mensajes", { sort: "created" }, asOwner);
    expect(page.items).toEqual([
      {
        collectionId: "pbc_mensajes",
        collectionName: "mensajes",
        id: expect.any(String),
        created: expect.stringMatching(PB_DATE),
        updated: expect.stringMatching(PB_DATE),
        cotizacion: valid.id,
        autor: owner.name,
        personal: false,
        texto: "¿Pueden entregar en Celaya?",
      },
      expect.objectContaining({ cotizacion: valid.id, autor: staff.name, personal: true, texto: "Sí, sin costo adicional." }),
    ]);
    const seen = (await getQuoteForCustomer(valid.id, owner.id))!;
    expect(page.items.map((item) => item.texto)).toEqual(seen.messages.map((message) => message.body));
  });

  it("shows staff every message, a customer those of their own sent quotes only, a guest none", async () => {
    const { ownDraft, others, asOwner, asOther } = await scene();
    expect((await list("mensajes", {}, STAFF)).totalItems).toBe(4);
    expect((await list("mensajes", {}, asOwner)).totalItems).toBe(2);
    expect(await ids("mensajes", { filter: `cotizacion = '${others.id}' || cotizacion = '${ownDraft.id}'` }, asOwner)).toEqual([]);
    expect(await ids("mensajes", { filter: "texto ~ 'clienta' || personal = true" }, asOwner)).toHaveLength(1);
    const othersMessage = (await list("mensajes", {}, asOther)).items;
    expect(othersMessage).toMatchObject([{ cotizacion: others.id }]);
    expect(statusOf(await view("mensajes", String(othersMessage[0]!.id), asOwner))).toBe(404);
    expect(await view("mensajes", String(othersMessage[0]!.id), STAFF)).toMatchObject({ ok: true });
    expect(await list("mensajes", {}, null)).toMatchObject({ totalItems: 0, items: [] });
    expect(statusOf(await view("mensajes", String(othersMessage[0]!.id), null))).toBe(404);
  });

  it("refuses the author's account id in a filter, and sorts", async () => {
    const { asOwner } = await scene();
    for (const filter of ["authorId != ''", "author_id != ''", "quoteId != ''"]) {
      expect(statusOf(await listRecords(COLLECTIONS, "mensajes", new URLSearchParams({ filter }), STAFF))).toBe(400);
    }
    expect((await list("mensajes", { sort: "-created" }, asOwner)).items.map((item) => item.personal)).toEqual([true, false]);
    expect((await list("mensajes", { sort: "autor" }, STAFF)).items.map((item) => item.autor)[0]).toMatch(/^Ana Torres/);
  });
});
