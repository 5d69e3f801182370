import type { Route } from "./+types/records";
import { productosCollection } from "~/features/catalogue/index.server";
import { pedidosCollection } from "~/features/orders/index.server";
import { cotizacionesCollection, mensajesCollection } from "~/features/quotes/index.server";
import { solicitudesCollection } from "~/features/solicitudes/index.server";
import type { RecordCollection } from "~/services/records/collection.server";
import { listRecords, recordErrorBody, viewRecord } from "~/services/records/records.server";
import { failureStatus } from "~/lib/result";
import { recordAuthOf } from "./record-auth.server";

// GET /api/collections/{collection}/records[/{id}] — PocketBase's record API, read by the official
// `pocketbase` SDK unchanged (docs/decisions/0014). Who asks comes from the `Authorization` token
// (record-auth.server.ts); without a valid one, a guest.

/** The collections the API serves; each is defined by the feature that owns its data. */
const COLLECTIONS: readonly RecordCollection[] = [productosCollection, solicitudesCollection, cotizacionesCollection, mensajesCollection, pedidosCollection];

export async function loader({ request, params }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const auth = await recordAuthOf(request);
  const result = params.id === undefined ? await listRecords(COLLECTIONS, params.collection, query, auth) : await viewRecord(COLLECTIONS, params.collection, params.id, query, auth);
  const headers = { "Cache-Control": "no-store" };
  if (!result.ok) {
    const status = failureStatus(result);
    return Response.json(recordErrorBody(result, status), { status, headers });
  }
  return Response.json(result.value, { headers });
}
