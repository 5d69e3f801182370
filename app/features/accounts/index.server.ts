// The public module of the accounts feature: the only file another feature, the start-up wiring or
// the record API imports.
export { getSessionUser, isStaff, type SessionUser } from "./accounts.server";
export { runAdminCreate } from "./admin-create.server";
export { API_SIGN_IN_REFUSED, findApiSession, signInApiClient, type ApiAccount, type ApiAccountKind, type ApiSession } from "./api-sessions.server";
export { listProviders, type ProviderInfo } from "./providers.server";
