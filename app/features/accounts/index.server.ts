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
export { checkEmailChangeToken, confirmEmailChange, EMAIL_CHANGE_REFUSALS, requestEmailChange, type EmailChangeTokenProblem } from "./email-change.server";
export { authApiClientWithCode, authApiClientWithPassword, MFA_SECONDS, ONE_TIME_CODE_SECONDS, requestApiCode, type ApiAuthOutcome } from "./api-two-step.server";
export { ONE_TIME_CODE_REQUESTS } from "./one-time-codes.server";
export {
  endBrowserImpersonation,
  hasImpersonationCookie,
  impersonationBanner,
  impersonationMiddleware,
  impersonationSeconds,
  IMPERSONATION_SECONDS,
  mayImpersonate,
  startApiImpersonation,
  startBrowserImpersonation,
  type ImpersonationBanner,
} from "./impersonation.server";
