import { gateStaffRecordCollections, liveApiSessions, superusersCollection, usersCollection } from "~/features/accounts/index.server";
import { productosCollection } from "~/features/catalogue/index.server";
import { linkOrdersToUser, pedidosCollection } from "~/features/orders/index.server";
import { cotizacionesCollection, linkQuotesToUser, mensajesCollection } from "~/features/quotes/index.server";
import { getSiteFacts, mediosCollection, siteContentCollections, siteRichTextOptions } from "~/features/site/index.server";
import { linkSolicitudesToUser, solicitudesCollection } from "~/features/solicitudes/index.server";
import { registerCollections } from "~/services/content/registry.server";
import { registerMailSender } from "~/services/mail/mail-config.server";
import { contentRecordCollections } from "~/services/content/record-collection.server";
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

  // The site's content collections (issue 16), kept and published by the content store.
  registerCollections(siteContentCollections);
  // Emails go out in the business's name, from its sales address in `ajustes` (docs/decisions/0047).
  registerMailSender(async () => {
    const facts = await getSiteFacts();
    return { name: facts.name, email: facts.email };
  });

  // Each behind the staff role's area (docs/decisions/0040): the role, not `_superusers`, decides.
  registerRecordCollections(gateStaffRecordCollections([
    productosCollection,
    solicitudesCollection,
    cotizacionesCollection,
    mensajesCollection,
    pedidosCollection,
    usersCollection,
    superusersCollection,
    // The content collections registered above, their long texts showing the library's images.
    ...contentRecordCollections(undefined, { richTextRendering: siteRichTextOptions }),
    // The media library's images (docs/decisions/0050).
    mediosCollection,
  ]));
  registerRealtimeSessionCheck((auths) => liveApiSessions(auths.map((auth) => ({ userId: auth.id, sessionId: auth.sessionId, kind: KIND[auth.collection] }))));
}
