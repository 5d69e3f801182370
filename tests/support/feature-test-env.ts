import { isolateTestEnv } from "./test-env";

// The environments the accounts and quotes test files share, set through
// `await vi.hoisted(async () => (await import(".../feature-test-env")).isolate…TestEnv("name"))`
// before the app reads it. This module imports nothing of the app, so it can run that early.

/** Where the quotes tests' staff notifications go (MAIL_STAFF_TO). */
export const QUOTES_STAFF_TO = "ventas@forja.test, direccion@forja.test";

/**
 * An accounts test file: a temporary DATA_DIR, no SMTP, no DATABASE_URL, and one configured
 * provider (Google); the test runs on a real database, real better-auth and real Requests carrying
 * the cookies better-auth set, and mail is only written to the outbox (no worker runs).
 */
export function isolateAccountsTestEnv(label: string): string {
  return isolateTestEnv(label, {
    unset: ["MICROSOFT_CLIENT_ID", "OIDC_ISSUER"],
    set: { GOOGLE_CLIENT_ID: "forja-test-google-client", GOOGLE_CLIENT_SECRET: "forja-test-google-secret" },
  });
}

/** A quotes test file: a temporary DATA_DIR, no sign-in provider, no PORT, and the staff recipients. */
export function isolateQuotesTestEnv(label: string): string {
  return isolateTestEnv(label, { unset: ["PORT", "GOOGLE_CLIENT_ID", "MICROSOFT_CLIENT_ID", "OIDC_ISSUER"], set: { MAIL_STAFF_TO: QUOTES_STAFF_TO } });
}
