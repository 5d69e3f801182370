import { and, asc, count, desc, eq, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteRevisions, quotes } from "~/db/schema/quotes";
import { containsPattern } from "~/lib/sql-like";
import { isUuid } from "~/lib/uuid";
import { effectiveStatus, type QuoteStatus } from "./states";
import { quoteVisibleToCustomer } from "./visibility.server";

// Lists of quotes: a customer's own (sent ones only) and the staff list with search, status
// filter and pages. Both show the effective status, and the staff filter matches it too.

export async function listQuotesForCustomer(userId: string, now = new Date()) {
  const rows = await getDb()
    .select({
      id: quotes.id,
      number: quotes.number,
      status: quotes.status,
      validUntil: quotes.validUntil,
      sentAt: quotes.sentAt,
      totalCentavos: quoteRevisions.totalCentavos,
      ivaCentavos: quoteRevisions.ivaCentavos,
    })
    .from(quotes)
    .innerJoin(quoteRevisions, and(eq(quoteRevisions.quoteId, quotes.id), eq(quoteRevisions.revision, quotes.sentRevision)))
    .where(quoteVisibleToCustomer(userId))
    .orderBy(desc(quotes.sentAt));
  return rows.map((row) => ({ ...row, status: effectiveStatus(row.status, row.validUntil, now) }));
}

export const STAFF_QUOTES_PAGE_SIZE = 30;

export interface StaffQuotesFilter {
  /** A status from the filter; the effective one for "enviada" and "vencida". */
  status?: string;
  q?: string;
  page: number;
}

export async function listQuotesForStaff(input: StaffQuotesFilter, now = new Date()) {
  const conditions: SQL[] = [];
  if (input.status === "vencida") conditions.push(or(eq(quotes.status, "vencida"), and(eq(quotes.status, "enviada"), lt(quotes.validUntil, now)))!);
  else if (input.status === "enviada") conditions.push(and(eq(quotes.status, "enviada"), sql`${quotes.validUntil} >= ${now.toISOString()}`)!);
  else if (input.status) conditions.push(eq(quotes.status, input.status as QuoteStatus));
  if (input.q?.trim()) {
    const pattern = containsPattern(input.q.trim());
    conditions.push(or(ilike(quotes.number, pattern), ilike(quotes.customerName, pattern), ilike(quotes.customerEmail, pattern), ilike(quotes.customerCompany, pattern))!);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const db = getDb();
  const page = Math.max(1, input.page);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: quotes.id,
        number: quotes.number,
        customerName: quotes.customerName,
        customerCompany: quotes.customerCompany,
        status: quotes.status,
        validUntil: quotes.validUntil,
        totalCentavos: quoteRevisions.totalCentavos,
        createdAt: quotes.createdAt,
      })
      .from(quotes)
      // The figure the customer was sent; a draft's own total until the first send.
      .innerJoin(quoteRevisions, and(eq(quoteRevisions.quoteId, quotes.id), eq(quoteRevisions.revision, sql`coalesce(${quotes.sentRevision}, ${quotes.currentRevision})`)))
      .where(where)
      .orderBy(desc(quotes.createdAt))
      .limit(STAFF_QUOTES_PAGE_SIZE)
      .offset((page - 1) * STAFF_QUOTES_PAGE_SIZE),
    db.select({ total: count() }).from(quotes).where(where),
  ]);
  return { rows: rows.map((row) => ({ ...row, status: effectiveStatus(row.status, row.validUntil, now) })), total, page };
}

/** The quotes made from one request (/admin/formularios/{id} links to them), oldest first, with their effective status. */
export async function listQuotesForSolicitud(solicitudId: string, now = new Date()) {
  if (!isUuid(solicitudId)) return [];
  const rows = await getDb()
    .select({ id: quotes.id, number: quotes.number, status: quotes.status, validUntil: quotes.validUntil })
    .from(quotes)
    .where(eq(quotes.solicitudId, solicitudId))
    .orderBy(asc(quotes.createdAt), asc(quotes.number));
  return rows.map(({ validUntil, ...row }) => ({ ...row, status: effectiveStatus(row.status, validUntil, now) }));
}
