import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, bearer, genericOAuth } from "better-auth/plugins";
import { getDb } from "~/db/client.server";
import { account, session, user, verification } from "~/db/schema/auth";
import { emit } from "~/services/events/events.server";
import { getEnv } from "~/lib/env.server";
import { sendConfirmationEmail, sendPasswordResetEmail } from "./account-emails.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { clearAccountAttempts } from "~/services/security/account-limit.server";
import { OIDC_PROVIDER_ID, providerCallbackUrl } from "./providers.server";
import { codeSignInPlugin } from "./code-sign-in-plugin.server";

/**
 * The client IP as our Express app computed it from the trusted-proxy setting. Requests handed to
 * better-auth carry it in this header; any value a client sent under that name is replaced.
 */
export const CLIENT_IP_HEADER = "x-forja-client-ip";

/**
 * Where better-auth's own HTTP endpoints live. Not `/api/auth`: that prefix is the seed's
 * content-service auth API (docs/decisions/0017), served by our own routes.
 */
export const AUTH_BASE_PATH = "/api/sesion";

export const CUSTOMER_ROLE = "customer";
/** The admin role (`npm run admin:create`); the staff roles and their areas are in staff-roles.ts. */
export const STAFF_ROLE = "admin";
export const SESSION_COOKIE_PREFIX = "forja";

/** The session token inside better-auth's `set-auth-token` header (`<token>.<signature>`, maybe URL-encoded). */
export function sessionTokenOf(headers: Headers): string | null {
  const value = headers.get("set-auth-token");
  if (!value) return null;
  return decodeURIComponent(value).split(".")[0] || null;
}

/** The account proved it owns its email: features that keep records by email react (app/hooks.server.ts). */
export function emailConfirmed(user: { id: string; email: string }): Promise<void> {
  return emit("cuenta.correo-confirmado", { userId: user.id, email: user.email });
}

function createAuth() {
  const env = getEnv();
  const secure = env.secureCookies;
  return betterAuth({
    appName: "Forja",
    baseURL: env.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: getAuthSecret(),
    trustedOrigins: [env.publicUrl],
    database: drizzleAdapter(getDb(), { provider: "pg", schema: { user, session, account, verification } }),
    user: {
      additionalFields: {
        company: { type: "string", required: false, input: true },
        phone: { type: "string", required: false, input: true },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: ({ user, token }) => sendPasswordResetEmail(user, token),
      // Proving the mailbox ends a sign-in lock at once (docs/decisions/0036).
      onPasswordReset: ({ user }) => clearAccountAttempts(user.email),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, token }) => sendConfirmationEmail(user, token),
      afterEmailVerification: (user) => emailConfirmed(user),
    },
    databaseHooks: {
      user: {
        create: {
          // A provider that vouches for the email (verified) links earlier anonymous requests at once.
          after: async (user) => {
            if (user.emailVerified) await emailConfirmed(user);
          },
        },
      },
    },
    account: {
      accountLinking: { enabled: true, trustedProviders: ["google", "microsoft", OIDC_PROVIDER_ID] },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    socialProviders: {
      ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            google: {
              clientId: env.GOOGLE_CLIENT_ID,
              clientSecret: env.GOOGLE_CLIENT_SECRET,
              redirectURI: providerCallbackUrl("google"),
            },
          }
        : {}),
      ...(env.MICROSOFT_CLIENT_ID && env.MICROSOFT_CLIENT_SECRET
        ? {
            microsoft: {
              clientId: env.MICROSOFT_CLIENT_ID,
              clientSecret: env.MICROSOFT_CLIENT_SECRET,
              tenantId: env.MICROSOFT_TENANT_ID,
              redirectURI: providerCallbackUrl("microsoft"),
            },
          }
        : {}),
    },
    // Our own limits (PostgreSQL-backed, per client IP) guard the screens; see services/security.
    rateLimit: { enabled: false },
    // Impersonation starts and ends only through Forja's own routes, which log it (docs/decisions/0063).
    disabledPaths: ["/admin/impersonate-user", "/admin/stop-impersonating"],
    // Errors that happen before a provider's state is read (e.g. a tampered state) go to our Spanish
    // error page; better-auth's default in production is a bare redirect to "/?error=…".
    onAPIError: { errorURL: "/auth/error" },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: secure,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true, secure },
    },
    plugins: [
      admin({
        defaultRole: CUSTOMER_ROLE,
        adminRoles: [STAFF_ROLE],
        bannedUserMessage: "Esta cuenta está bloqueada. Escríbanos si cree que es un error.",
      }),
      bearer(),
      // Sessions for a proven one-time code or two-step sign-in (docs/decisions/0061); server-only.
      codeSignInPlugin(),
      genericOAuth({
        config:
          env.OIDC_ISSUER && env.OIDC_CLIENT_ID
            ? [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${env.OIDC_ISSUER.replace(/\/+$/, "")}/.well-known/openid-configuration`,
                  clientId: env.OIDC_CLIENT_ID,
                  clientSecret: env.OIDC_CLIENT_SECRET,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  redirectURI: providerCallbackUrl(OIDC_PROVIDER_ID),
                },
              ]
            : [],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as typeof globalThis & { __forjaAuth?: { auth: Auth; db: unknown } };

/** The better-auth instance bound to the current database (rebuilt when tests swap databases). */
export function getAuth(): Auth {
  const db = getDb();
  if (!holder.__forjaAuth || holder.__forjaAuth.db !== db) holder.__forjaAuth = { auth: createAuth(), db };
  return holder.__forjaAuth.auth;
}
