import { liveApiSessions, superusersCollection, usersCollection } from "~/features/accounts/index.server";
import { productosCollection } from "~/features/catalogue/index.server";
import { linkOrdersToUser, pedidosCollection } from "~/features/orders/index.server";
import { cotizacionesCollection, linkQuotesToUser, mensajesCollection } from "~/features/quotes/index.server";
import { linkSolicitudesToUser, solicitudesCollection } from "~/features/solicitudes/index.server";
import { subscribe } from "~/services/events/events.server";
import { registerRealtimeSessionCheck } from "~/services/realtime/index.server";
import { registerRecordCollections } from "~/services/records/registry.server";

// The composition root: the one module that knows every feature. It wires which feature reacts to
// which event, which collections the record API and realtime serve, and how realtime checks a
// subscriber's session. Called once at start (server/app.ts) and by the integration tests' database
// set-up, so both run the same wiring. Idempotent.

const KIND = { users: "customer", _superusers: "staff" } as const;

export function registerFeatureHooks(): void {
  // What was made with an email before the account proved it owns it joins the account.
  subscribe("cuenta.correo-confirmado", "solicitudes.vincular", ({ userId, email }) => linkSolicitudesToUser(userId, email).then(() => undefined));
  subscribe("cuenta.correo-confirmado", "cotizaciones.vincular", ({ userId, email }) => linkQuotesToUser(userId, email).then(() => undefined));
  subscribe("cuenta.correo-confirmado", "pedidos.vincular", ({ userId, email }) => linkOrdersToUser(userId, email).then(() => undefined));

  registerRecordCollections([
    productosCollection,
    solicitudesCollection,
    cotizacionesCollection,
    mensajesCollection,
    pedidosCollection,
    usersCollection,
    superusersCollection,
  ]);
  registerRealtimeSessionCheck((auths) => liveApiSessions(auths.map((auth) => ({ userId: auth.id, sessionId: auth.sessionId, kind: KIND[auth.collection] }))));
}
