import { linkOrdersToUser } from "~/features/orders/index.server";
import { linkQuotesToUser } from "~/features/quotes/index.server";
import { linkSolicitudesToUser } from "~/features/solicitudes/index.server";
import { subscribe } from "~/services/events/events.server";

// The composition root of cross-feature reactions: the one module that knows which feature reacts
// to which event. Called once at start (server/app.ts) and by the integration tests' database set-up,
// so both run the same wiring. Idempotent.

export function registerFeatureHooks(): void {
  // What was made with an email before the account proved it owns it joins the account.
  subscribe("cuenta.correo-confirmado", "solicitudes.vincular", ({ userId, email }) => linkSolicitudesToUser(userId, email).then(() => undefined));
  subscribe("cuenta.correo-confirmado", "cotizaciones.vincular", ({ userId, email }) => linkQuotesToUser(userId, email).then(() => undefined));
  subscribe("cuenta.correo-confirmado", "pedidos.vincular", ({ userId, email }) => linkOrdersToUser(userId, email).then(() => undefined));
}
