import { and, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quoteRevisions, quotes } from "~/db/schema/quotes";
import { getSolicitudForQuote, markSolicitudQuoted } from "~/features/solicitudes/index.server";
import { nextRecordNumber } from "~/services/numbering/next-number.server";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { getSiteFacts } from "~/features/site/index.server";
import { findAccountId, recordQuoteEvent } from "./records.server";
import type { Actor, QuoteLine } from "./types";

// Creating a quote: a blank draft, or one prefilled from a request (which moves to "cotizado").

const SOLICITUD_NOT_FOUND = "No encontramos esa solicitud.";

/** What the "Nueva cotización" page says about the request a draft would start from; null if there is none. */
export async function getQuoteSource(solicitudId: string): Promise<{ id: string; number: string; name: string; company: string | null } | null> {
  const solicitud = await getSolicitudForQuote(solicitudId);
  return solicitud && { id: solicitud.id, number: solicitud.number, name: solicitud.name, company: solicitud.company };
}

/** A new draft, blank or prefilled from a request (which moves to "cotizado"). */
export async function createQuote(input: { solicitudId?: string | null; actor: Actor }, now = new Date()): Promise<Result<{ id: string; number: string }>> {
  const solicitud = input.solicitudId ? await getSolicitudForQuote(input.solicitudId) : null;
  if (input.solicitudId && !solicitud) return notFoundResult(SOLICITUD_NOT_FOUND);
  // One live quote per request: a second click on "Crear cotización" opens the one that exists.
  if (solicitud) {
    const [existing] = await getDb()
      .select({ id: quotes.id, number: quotes.number })
      .from(quotes)
      .where(and(eq(quotes.solicitudId, solicitud.id), sql`${quotes.status} <> 'cancelada'`))
      .limit(1);
    if (existing) return ok(existing);
  }
  // A new quote starts from the terms and validity of `ajustes` (docs/decisions/0047), read before
  // the transaction (on PGlite a read outside a running transaction waits for it).
  const { quoteDefaults } = await getSiteFacts();
  const created = await getDb().transaction(async (tx) => {
    const number = await nextRecordNumber(tx, "COT", now);
    const email = solicitud?.email ?? "";
    const [quote] = await tx
      .insert(quotes)
      .values({
        number,
        solicitudId: solicitud?.id ?? null,
        customerEmail: email,
        customerName: solicitud?.name ?? "",
        customerCompany: solicitud?.company ?? null,
        customerUserId: solicitud?.userId ?? (email ? await findAccountId(tx, email) : null),
        createdById: input.actor.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: quotes.id });
    const firstLine: QuoteLine[] = solicitud?.description
      ? [
          {
            description: solicitud.description.slice(0, 500),
            quantityMilli: (solicitud.quantity ?? 1) * 1000,
            unit: "pieza",
            unitPriceCentavos: 0,
            discountBp: 0,
            netCentavos: 0,
            ivaCentavos: 0,
          },
        ]
      : [];
    await tx.insert(quoteRevisions).values({
      quoteId: quote!.id,
      revision: 1,
      lines: firstLine,
      leadTimeDays: 10,
      terms: quoteDefaults.terms,
      validityDays: quoteDefaults.validityDays,
      subtotalCentavos: 0,
      ivaCentavos: 0,
      totalCentavos: 0,
    });
    await recordQuoteEvent(tx, {
      quoteId: quote!.id,
      actor: input.actor,
      now,
      kind: "creada",
      revision: 1,
      toStatus: "borrador",
      detail: solicitud ? `Desde la solicitud ${solicitud.number}` : undefined,
    });
    return { id: quote!.id, number };
  });
  if (solicitud) await markSolicitudQuoted(solicitud.id, input.actor);
  return ok(created);
}
