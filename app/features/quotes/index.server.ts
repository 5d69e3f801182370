// The public module of the quotes feature: the only file another feature, the start-up wiring or
// the record API imports.
export { linkQuotesToUser } from "./link.server";
export { expireDueQuotes } from "./expiry.server";
export { cotizacionesCollection, mensajesCollection } from "./record-collections.server";
export { cotizacionesFiles } from "./record-files.server";
