import { superusersCollection, usersCollection } from "~/features/accounts/index.server";
import { productosCollection } from "~/features/catalogue/index.server";
import { pedidosCollection } from "~/features/orders/index.server";
import { cotizacionesCollection, mensajesCollection } from "~/features/quotes/index.server";
import { solicitudesCollection } from "~/features/solicitudes/index.server";
import type { RecordCollection } from "~/services/records/collection.server";

// The collections the record API serves (records.ts, batch.ts); each is defined by the feature that
// owns its data (docs/decisions/0014, 0015).
export const RECORD_COLLECTIONS: readonly RecordCollection[] = [
  productosCollection,
  solicitudesCollection,
  cotizacionesCollection,
  mensajesCollection,
  pedidosCollection,
  usersCollection,
  superusersCollection,
];
