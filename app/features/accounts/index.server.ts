// The public module of the accounts feature: the only file another feature, the start-up wiring or
// the record API imports.
export { getSessionUser, isStaff, type SessionUser } from "./accounts.server";
export { runAdminCreate } from "./admin-create.server";
export { hasSessionCookie, headerSignedIn } from "./header-session.server";
export { findBrowserApiSession, type BrowserApiSession } from "./browser-api-session.server";
export { API_SIGN_IN_REFUSED, findApiSession, liveApiSessions, signInApiClient, type ApiAccount, type ApiAccountKind, type ApiSession } from "./api-sessions.server";
export { listProviders, type ProviderInfo } from "./providers.server";
export { superusersCollection, usersCollection } from "./records-users.server";
export { gateStaffRecordCollections, gateStaffRecordView, staffAccountMayUse } from "./staff-record-gate.server";
export { isStaffRole, staffMayUse, type StaffArea } from "./staff-roles";
export {
  checkApiResetToken,
  checkApiVerificationToken,
  confirmApiVerification,
  isWeakApiPassword,
  requestApiPasswordReset,
  requestApiVerification,
  resetApiPassword,
  type ApiTokenProblem,
} from "./records-users-auth.server";
export { API_OAUTH2_FAILURES, isApiProvider, listApiProviderAuths, signInApiClientWithProvider, type ApiOAuth2Meta, type ApiProviderAuth } from "./records-users-oauth2.server";
export { TEST_EMAIL_TEMPLATES, sendTestEmail, testEmail } from "./account-emails.server";
