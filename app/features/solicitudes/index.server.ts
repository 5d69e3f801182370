// The public module of the solicitudes feature (requests from /cotiza and /contact): the only file
// another feature, the start-up wiring or the record API imports.
export { markSolicitudQuoted } from "./commands.server";
export { getSolicitudForQuote } from "./detail.server";
export { startGeometryJob } from "./geometry.server";
export { listWaitingRequestsForCustomer, type WaitingRequest, type WaitingRequestStage } from "./customer-requests.server";
export { linkSolicitudesToUser } from "./link.server";
export { solicitudesCollection } from "./record-collection.server";
export { solicitudesFiles } from "./record-files.server";
