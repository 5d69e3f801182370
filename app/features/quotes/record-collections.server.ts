import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { quoteMessages, quotes } from "~/db/schema/quotes";
import { isUuid } from "~/lib/uuid";
import { staffOrCustomerRule, type RecordAuth, type RecordData } from "~/services/records/collection.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { effectiveStatus } from "./states";
import { effectiveStatusSql, quoteMessageVisibleToCustomer, quoteVisibleToCustomer } from "./visibility.server";

// Quotes as the record API's `cotizaciones` and `mensajes` collections (docs/decisions/0014), read
// only. Who sees what is the pages' rule (visibility.server.ts): staff see every quote and message;
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
  };
}

const quotesVisibleTo = (auth: RecordAuth) => staffOrCustomerRule(auth, quoteVisibleToCustomer);

export const cotizacionesCollection = tableCollection<QuoteRecordRow>({
  id: "pbc_cotizaciones",
  name: "cotizaciones",
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

export const mensajesCollection = tableCollection<MessageRecordRow>({
  id: "pbc_mensajes",
  name: "mensajes",
  fields: MENSAJES_FIELDS,
  defaultSort: "created",
  table: quoteMessages,
  idColumn: quoteMessages.id,
  isId: isUuid,
  select: () => selectMessages().$dynamic(),
  rule: messagesVisibleTo,
  toRecord: (row) => row,
});
