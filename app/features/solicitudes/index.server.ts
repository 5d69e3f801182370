// The public module of the solicitudes feature (requests from /cotiza and /contact): the only file
// another feature, the start-up wiring or the record API imports.
export { linkSolicitudesToUser } from "./link.server";
export { getSolicitudForQuote, markSolicitudQuoted } from "./admin.server";
