import { and, desc, eq, inArray, isNotNull, notExists } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";
import { solicitudes } from "~/db/schema/solicitudes";
import { optionLabel, SERVICE_OPTIONS } from "./forms";

// What a signed-in customer sees on /quotes before any quote reaches them: their quote requests still
// waiting for one. A request leaves this list when a quote made from it is sent (it is then on the
// quotes list) or when staff close or discard it.

/** Where a waiting request stands, in the customer's words. */
export type WaitingRequestStage = "recibida" | "en-revision" | "en-preparacion";

export interface WaitingRequest {
  id: string;
  number: string;
  createdAt: Date;
  /** The service chosen on /cotiza, as the form names it; null when none was chosen. */
  service: string | null;
  stage: WaitingRequestStage;
}

const STAGES = { nuevo: "recibida", en_revision: "en-revision", cotizado: "en-preparacion" } as const;

export async function listWaitingRequestsForCustomer(userId: string): Promise<WaitingRequest[]> {
  const db = getDb();
  const rows = await db
    .select({ id: solicitudes.id, number: solicitudes.number, createdAt: solicitudes.createdAt, service: solicitudes.service, status: solicitudes.status })
    .from(solicitudes)
    .where(
      and(
        eq(solicitudes.userId, userId),
        eq(solicitudes.type, "cotizacion"),
        inArray(solicitudes.status, Object.keys(STAGES) as (keyof typeof STAGES)[]),
        notExists(db.select({ id: quotes.id }).from(quotes).where(and(eq(quotes.solicitudId, solicitudes.id), isNotNull(quotes.sentRevision)))),
      ),
    )
    .orderBy(desc(solicitudes.createdAt))
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    createdAt: row.createdAt,
    service: optionLabel(SERVICE_OPTIONS, row.service),
    stage: STAGES[row.status as keyof typeof STAGES],
  }));
}
