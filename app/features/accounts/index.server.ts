// The public module of the accounts feature: the only file another feature, the start-up wiring or
// the record API imports.
export { getSessionUser, isStaff, type SessionUser } from "./accounts.server";
export { runAdminCreate } from "./admin-create.server";
