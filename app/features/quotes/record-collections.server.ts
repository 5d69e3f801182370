import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { quoteMessages, quotes } from "~/db/schema/quotes";
import { isUuid } from "~/lib/uuid";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { staffOrCustomerRule, type RecordAuth, type RecordCollection, type RecordData, type RecordWriteInput, type RecordWriter } from "~/services/records/collection.server";
import { asFieldFailure, boolField, FIELD_CODES, hasField, isStaffWriter, recordFieldFailure, refuseWrite, textField } from "~/services/records/writes.server";
import { createQuote } from "./create.server";
import { QuoteMessageSchema } from "./forms";
import { cancelQuote, reviseQuote, sendQuote } from "./lifecycle.server";
import { postQuoteMessage } from "./messages.server";
import type { Actor } from "./types";
import { tableCollection } from "~/services/records/table-collection.server";
import { effectiveStatus, type QuoteStatus } from "./states";
import { effectiveStatusSql, quoteMessageVisibleToCustomer, quoteVisibleToCustomer } from "./visibility.server";

// Quotes as the record API's `cotizaciones` and `mensajes` collections (docs/decisions/0014; writes:
// 0015 and below). Who sees what is the pages' rule (visibility.server.ts): staff see every quote and message;
// a customer their own quotes once sent, and the messages on those; a guest nothing (an empty list,
// a 404 for a record, as PocketBase applies a rule as a filter).
//
// `total` is the figure of the revision the customer was sent (pesos, IVA included), the same one
// /quotes and the staff list show; a quote never sent (which only staff see) shows its draft's
// total, as the staff list does. A revision in preparation after a send never shows: it is not
// the offer until it is sent. Empty values read as PocketBase's: "" for text, relations and dates.


// ——— cotizaciones ———

/**
 * The total in centavos of the revision the customer was sent (the draft's before the first send).
 * Names spelled out: drizzle leaves columns unqualified in a one-table query.
 */
const totalCentavos = sql<number>`(select r.total_centavos from quote_revisions as r where r.quote_id = "quotes"."id" and r.revision = coalesce("quotes"."sent_revision", "quotes"."current_revision"))`.mapWith(Number);

/** Allow-list for `filter` and `sort`: API name → column or expression, with its type. */
export const COTIZACIONES_FIELDS: RecordFieldMap = {
  id: { column: sql`${quotes.id}::text`, type: "text" },
  created: { column: quotes.createdAt, type: "date" },
  updated: { column: quotes.updatedAt, type: "date" },
  numero: { column: quotes.number, type: "text" },
  estado: { column: effectiveStatusSql, type: "text" },
  total: { column: sql`(${totalCentavos})::numeric / 100`, type: "number" },
  vigencia: { column: quotes.validUntil, type: "date" },
  cliente: { column: quotes.customerUserId, type: "text" },
  solicitud: { column: sql`${quotes.solicitudId}::text`, type: "text" },
};

const quoteColumns = {
  id: quotes.id,
  created: quotes.createdAt,
  updated: quotes.updatedAt,
  numero: quotes.number,
  status: quotes.status,
  totalCentavos,
  vigencia: quotes.validUntil,
  cliente: quotes.customerUserId,
  solicitud: quotes.solicitudId,
};

const selectQuotes = () => getDb().select(quoteColumns).from(quotes);
type QuoteRecordRow = Awaited<ReturnType<typeof selectQuotes>>[number];

function toQuoteRecord({ status, totalCentavos: centavos, ...row }: QuoteRecordRow, now = new Date()): RecordData {
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    numero: row.numero,
    estado: effectiveStatus(status, row.vigencia, now),
    total: centavos / 100,
    vigencia: row.vigencia ?? "",
    cliente: row.cliente ?? "",
    solicitud: row.solicitud ?? "",
    // The quote as a PDF, for the files API (record-files.server.ts; a protected file: token and view rule).
    pdf: `${row.numero}.pdf`,
  };
}

const quotesVisibleTo = (auth: RecordAuth) => staffOrCustomerRule(auth, quoteVisibleToCustomer);

const readQuotes = tableCollection<QuoteRecordRow>({
  id: "pbc_cotizaciones",
  name: "cotizaciones",
  relations: { cliente: "users", solicitud: "solicitudes" },
  fields: COTIZACIONES_FIELDS,
  defaultSort: "-created",
  table: quotes,
  idColumn: quotes.id,
  isId: isUuid,
  select: () => selectQuotes().$dynamic(),
  rule: quotesVisibleTo,
  toRecord: (row) => toQuoteRecord(row),
});

// ——— mensajes ———

/**
 * Allow-list of `mensajes`. `autor` is the author's name and `personal` whether staff wrote it: what
 * the conversation on the quote page shows ("Equipo Forja" / "Cliente"); the author's account id
 * stays private, as on the page. A message is never edited, so `updated` is its `created`.
 */
export const MENSAJES_FIELDS: RecordFieldMap = {
  id: { column: sql`${quoteMessages.id}::text`, type: "text" },
  created: { column: quoteMessages.createdAt, type: "date" },
  updated: { column: quoteMessages.createdAt, type: "date" },
  cotizacion: { column: sql`${quoteMessages.quoteId}::text`, type: "text" },
  autor: { column: quoteMessages.authorName, type: "text" },
  personal: { column: quoteMessages.fromStaff, type: "bool" },
  texto: { column: quoteMessages.body, type: "text" },
};

const messageColumns = {
  id: quoteMessages.id,
  created: quoteMessages.createdAt,
  updated: quoteMessages.createdAt,
  cotizacion: quoteMessages.quoteId,
  autor: quoteMessages.authorName,
  personal: quoteMessages.fromStaff,
  texto: quoteMessages.body,
};

const selectMessages = () => getDb().select(messageColumns).from(quoteMessages);
type MessageRecordRow = Awaited<ReturnType<typeof selectMessages>>[number];

const messagesVisibleTo = (auth: RecordAuth) => staffOrCustomerRule(auth, quoteMessageVisibleToCustomer);

const readMessages = tableCollection<MessageRecordRow>({
  id: "pbc_mensajes",
  name: "mensajes",
  relations: { cotizacion: "cotizaciones" },
  fields: MENSAJES_FIELDS,
  defaultSort: "created",
  table: quoteMessages,
  idColumn: quoteMessages.id,
  isId: isUuid,
  select: () => selectMessages().$dynamic(),
  rule: messagesVisibleTo,
  toRecord: (row) => row,
});

// ——— Writes (docs/decisions/0015), through the same commands as the panel and /quotes/{id} ———

const STAFF: RecordAuth = { collection: "_superusers", id: "" };
const relationMissing = (field: string) => recordFieldFailure({ [field]: { code: FIELD_CODES.missingRelation, message: "Failed to find all relation records with the provided ids." } });

/**
 * Staff create a quote as "Nueva cotización" does: a blank draft, or with `solicitud` one
 * prefilled from that request (which moves to "cotizado"). As the panel's button, a request that
 * already has a live quote answers that quote instead of a second one.
 */
async function createCotizacion(input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const solicitudId = textField(input, "solicitud") ?? "";
  const created = await createQuote({ solicitudId: solicitudId || null, actor: { id: writer.auth.id, name: writer.name } });
  if (!created.ok) return created.kind === "not-found" ? relationMissing("solicitud") : created;
  return ok(created.value.id);
}

/** The staff moves of the quote table (states.ts) an update may ask for through `estado`. */
const STAFF_MOVES: Partial<Record<QuoteStatus, (quoteId: string, actor: Actor) => Promise<Result>>> = {
  enviada: (quoteId, actor) => sendQuote(quoteId, actor),
  cancelada: (quoteId, actor) => cancelQuote(quoteId, actor),
};

/**
 * Staff update a quote through its lifecycle: `nuevaRevision: true` opens a new draft revision
 * from the one sent (reviseQuote); `estado: "enviada"` sends the draft revision (sendQuote, with
 * its email) and `estado: "cancelada"` withdraws the quote (cancelQuote). The table decides what
 * is allowed from where; a refusal comes back under the field. Accepting and rejecting are the
 * customer's, on their page; lines and prices are edited in the panel. Other fields are ignored.
 */
async function updateCotizacion(id: string, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const current = await readQuotes.view(id, STAFF);
  if (!current) return notFoundResult();
  const actor: Actor = { id: writer.auth.id, name: writer.name };

  const revise = boolField(input, "nuevaRevision");
  if (revise === null) return recordFieldFailure({ nuevaRevision: { code: FIELD_CODES.invalid, message: "Indique verdadero o falso." } });
  if (revise) {
    const revised = await reviseQuote(id, actor);
    if (!revised.ok) return asFieldFailure(revised, "nuevaRevision", FIELD_CODES.state);
  }
  const estado = textField(input, "estado");
  if (estado === "enviada" && current.estado === "enviada") {
    // Already sent: "enviada" again sends a revision prepared since, if any; otherwise nothing changes.
    const sent = await sendQuote(id, actor);
    if (!sent.ok && sent.kind !== "conflict") return asFieldFailure(sent, "estado", FIELD_CODES.state);
  } else if (hasField(input, "estado") && estado !== current.estado) {
    const move = estado ? STAFF_MOVES[estado as QuoteStatus] : undefined;
    if (!move) {
      return recordFieldFailure({
        estado: { code: FIELD_CODES.state, message: "El personal solo puede enviar («enviada») o cancelar («cancelada») una cotización; el cliente la acepta o la rechaza en su página." },
      });
    }
    const moved = await move(id, actor);
    if (!moved.ok) return asFieldFailure(moved, "estado", FIELD_CODES.state);
  }
  return ok(id);
}

export const cotizacionesCollection: RecordCollection = { ...readQuotes, create: createCotizacion, update: updateCotizacion };

/**
 * A message on a quote, by staff or by the quote's customer, with addQuoteMessage (the page's
 * command: stored with its email to the other side). A customer writes only on a quote they can
 * view (the `cotizaciones` rule, the same as /quotes/{id}); otherwise, as a guest, PocketBase's
 * failed create rule: 400 with no detail, so nobody learns whether the quote exists. Messages are
 * never edited or deleted, as on the page.
 */
async function createMensaje(input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!writer) return invalid("A guest cannot write messages.");
  const quoteId = textField(input, "cotizacion") ?? "";
  const staff = isStaffWriter(writer);
  if (!quoteId) return recordFieldFailure({ cotizacion: { code: FIELD_CODES.required, message: "Cannot be blank." } });
  const visible = await readQuotes.view(quoteId, writer.auth);
  if (!visible) return staff ? relationMissing("cotizacion") : invalid("The quote is not the customer's.");
  const parsed = QuoteMessageSchema.shape.body.safeParse(textField(input, "texto") ?? "");
  if (!parsed.success) {
    return recordFieldFailure({ texto: { code: hasField(input, "texto") ? FIELD_CODES.invalid : FIELD_CODES.required, message: parsed.error.issues[0]?.message ?? "Escriba su mensaje." } });
  }
  const added = await postQuoteMessage(quoteId, { id: writer.auth.id, name: writer.name }, { body: parsed.data, fromStaff: staff });
  if (!added.ok) return added.kind === "not-found" ? relationMissing("cotizacion") : asFieldFailure(added, "cotizacion");
  return ok(added.value.id);
}

export const mensajesCollection: RecordCollection = { ...readMessages, create: createMensaje };
