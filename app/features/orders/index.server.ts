// The public module of the orders feature (carts, checkout, orders): the only file another feature,
// the start-up wiring or the record API imports.
export { linkOrdersToUser } from "./link.server";
export { removeAbandonedGuestCarts } from "./cart.server";
export { pedidosCollection } from "./record-collection.server";
