import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import type { ApiSession } from "./api-sessions.server";
import { authErrorCode } from "./auth-errors.server";
import { CLIENT_IP_HEADER, CUSTOMER_ROLE, getAuth } from "./auth.server";
import { getProvider, listProviders, OIDC_PROVIDER_ID } from "./providers.server";

// PocketBase's OAuth2 for the record API's `users` (docs/decisions/0018): the client runs the
// provider's authorization itself (the SDK's authWithOAuth2 popup, or any app with its own redirect
// URL) from the `authURL` that auth-methods lists, then hands us `{provider, code, codeVerifier,
// redirectURL}`. We exchange the code at the provider's token endpoint with our client secret, and
// better-auth — the same code as the site's "Entrar con …" — verifies the provider's id_token against
// its keys, finds, links or creates the account and opens a session. Every configured provider is an
// OpenID Connect one (Google, Microsoft, the generic OIDC), so one client serves all.
// Only customers sign in here: staff use their password (`_superusers` has no OAuth2).

/** Why a provider sign-in failed, as PocketBase tells them apart. */
export const API_OAUTH2_FAILURES = {
  token: "api-oauth2-token",
  user: "api-oauth2-user",
  refused: "api-oauth2-refused",
} as const;

/** What auth-methods lists for a provider (PocketBase's providerInfo). */
export interface ApiProviderAuth {
  name: string;
  displayName: string;
  state: string;
  /** The provider's authorize URL, ending in an empty `redirect_uri=` the client completes. */
  authURL: string;
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: "S256";
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

const DISCOVERY_TTL_MS = 60 * 60_000;
const HTTP_TIMEOUT_MS = 10_000;
const SCOPES = "openid email profile";
const discoveries = new Map<string, { at: number; value: Discovery }>();

/** Google's and Microsoft's published endpoints; the generic provider's come from its discovery document. */
function fixedEndpoints(providerId: string): Discovery | null {
  if (providerId === "google") return { authorization_endpoint: "https://accounts.google.com/o/oauth2/v2/auth", token_endpoint: "https://oauth2.googleapis.com/token" };
  if (providerId === "microsoft") {
    const tenant = encodeURIComponent(getEnv().MICROSOFT_TENANT_ID);
    return { authorization_endpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`, token_endpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token` };
  }
  return null;
}

function credentials(providerId: string): { clientId: string; clientSecret?: string } {
  const env = getEnv();
  if (providerId === OIDC_PROVIDER_ID) return { clientId: env.OIDC_CLIENT_ID ?? "", clientSecret: env.OIDC_CLIENT_SECRET };
  if (providerId === "microsoft") return { clientId: env.MICROSOFT_CLIENT_ID ?? "", clientSecret: env.MICROSOFT_CLIENT_SECRET };
  return { clientId: env.GOOGLE_CLIENT_ID ?? "", clientSecret: env.GOOGLE_CLIENT_SECRET };
}

/** The provider's endpoints (the generic provider's discovery document is kept an hour); null when it cannot be read. */
async function discover(providerId: string): Promise<Discovery | null> {
  const fixed = fixedEndpoints(providerId);
  if (fixed) return fixed;
  const url = `${(getEnv().OIDC_ISSUER ?? "").replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const cached = discoveries.get(url);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
  try {
    const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const json = (await response.json()) as Partial<Discovery>;
    if (typeof json.authorization_endpoint !== "string" || typeof json.token_endpoint !== "string") throw new Error("discovery without endpoints");
    const value = { authorization_endpoint: json.authorization_endpoint, token_endpoint: json.token_endpoint };
    discoveries.set(url, { at: Date.now(), value });
    return value;
  } catch (error) {
    logger.warn({ err: error, provider: providerId }, "OAuth2: could not read the provider's discovery document");
    return null;
  }
}

const randomText = (length: number) => randomBytes(length).toString("base64url").slice(0, length);

/** Each configured provider with a fresh state and PKCE pair, as PocketBase's auth-methods (a provider that cannot be reached is left out). */
export async function listApiProviderAuths(): Promise<ApiProviderAuth[]> {
  const auths = await Promise.all(
    listProviders().map(async (provider): Promise<ApiProviderAuth | null> => {
      const endpoints = await discover(provider.id);
      if (!endpoints) return null;
      const state = randomText(30);
      const codeVerifier = randomText(43);
      const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
      const url = new URL(endpoints.authorization_endpoint);
      url.searchParams.set("client_id", credentials(provider.id).clientId);
      url.searchParams.set("code_challenge", codeChallenge);
      url.searchParams.set("code_challenge_method", "S256");
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", SCOPES);
      url.searchParams.set("state", state);
      // Empty, as PocketBase's: the client appends its own redirect URL.
      const authURL = `${url.toString()}&redirect_uri=`;
      return { name: provider.id, displayName: provider.name, state, authURL, codeVerifier, codeChallenge, codeChallengeMethod: "S256" };
    }),
  );
  return auths.filter((auth) => auth !== null);
}

/** Whether `providerId` is a configured provider. */
export function isApiProvider(providerId: string): boolean {
  return getProvider(providerId) !== undefined;
}

interface ProviderTokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  expiresIn: number | null;
}

/** The authorization-code grant at the provider's token endpoint (client_secret_post, PKCE). */
async function exchangeCode(providerId: string, input: { code: string; codeVerifier: string; redirectURL: string }): Promise<ProviderTokens | null> {
  const endpoints = await discover(providerId);
  if (!endpoints) return null;
  const { clientId, clientSecret } = credentials(providerId);
  const body = new URLSearchParams({ grant_type: "authorization_code", code: input.code, redirect_uri: input.redirectURL, client_id: clientId });
  if (clientSecret) body.set("client_secret", clientSecret);
  if (input.codeVerifier) body.set("code_verifier", input.codeVerifier);
  try {
    const response = await fetch(endpoints.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    if (!response.ok) {
      logger.info({ provider: providerId, status: response.status }, "OAuth2: the provider refused the code");
      return null;
    }
    const json = (await response.json()) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    return {
      accessToken: text(json.access_token),
      refreshToken: text(json.refresh_token),
      idToken: text(json.id_token),
      expiresIn: typeof json.expires_in === "number" ? json.expires_in : null,
    };
  } catch (error) {
    logger.warn({ err: error, provider: providerId }, "OAuth2: the token request failed");
    return null;
  }
}

/** The claims of a JWT, unverified (better-auth verifies the id_token before anything is trusted). */
function unverifiedClaims(token: string): Record<string, unknown> {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return claims && typeof claims === "object" && !Array.isArray(claims) ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** PocketBase's `meta` of an OAuth2 sign-in: the provider's user and tokens, and whether the account is new. */
export interface ApiOAuth2Meta {
  id: string;
  name: string;
  username: string;
  email: string;
  avatarURL: string;
  accessToken: string;
  refreshToken: string;
  /** When the provider's access token expires, or null when it did not say. */
  expiry: Date | null;
  rawUser: Record<string, unknown>;
  isNew: boolean;
}

/**
 * Signs a customer in with a provider's authorization code. Failures: API_OAUTH2_FAILURES.token (the
 * provider refused the code), .user (no verifiable id_token or no email), .refused (better-auth
 * would not sign this person in here: e.g. a staff account, a blocked one, or an unconfirmed
 * account it will not link).
 */
export async function signInApiClientWithProvider(
  meta: RequestMeta,
  input: { providerId: string; code: string; codeVerifier: string; redirectURL: string },
): Promise<Result<ApiSession & { meta: ApiOAuth2Meta }>> {
  const tokens = await exchangeCode(input.providerId, input);
  if (!tokens) return invalid(API_OAUTH2_FAILURES.token);
  if (!tokens.idToken) return invalid(API_OAUTH2_FAILURES.user);
  const claims = unverifiedClaims(tokens.idToken);
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const email = text(claims.email).toLowerCase();
  if (!email) return invalid(API_OAUTH2_FAILURES.user);
  const [existing] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);

  const headers = new Headers({ [CLIENT_IP_HEADER]: meta.ip });
  for (const name of ["user-agent", "accept-language"]) {
    const value = meta.request.headers.get(name);
    if (value) headers.set(name, value);
  }
  let sessionToken: string;
  try {
    const signedIn = await getAuth().api.signInSocial({
      body: { provider: input.providerId, idToken: { token: tokens.idToken, accessToken: tokens.accessToken || undefined, refreshToken: tokens.refreshToken || undefined } },
      headers,
    });
    sessionToken = "token" in signedIn && typeof signedIn.token === "string" ? signedIn.token : "";
  } catch (error) {
    const code = authErrorCode(error);
    if (code === undefined && !(error && typeof error === "object" && "status" in error)) throw error;
    logger.info({ provider: input.providerId, code }, "OAuth2: better-auth refused the provider sign-in");
    return invalid(code === "INVALID_TOKEN" || code === "FAILED_TO_GET_USER_INFO" || code === "USER_EMAIL_NOT_FOUND" ? API_OAUTH2_FAILURES.user : API_OAUTH2_FAILURES.refused);
  }
  if (!sessionToken) throw new Error("better-auth answered a provider sign-in without a session token");

  // As signInApiClient: the session row, and the kind of account (customers only here).
  const [row] = await getDb()
    .select({ sessionId: session.id, sessionExpiresAt: session.expiresAt, role: user.role, id: user.id, email: user.email, name: user.name, verified: user.emailVerified, created: user.createdAt, updated: user.updatedAt })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sessionToken))
    .limit(1);
  if (!row) throw new Error("the session better-auth just opened is not in the database");
  const { sessionId, sessionExpiresAt, role, ...account } = row;
  if (role !== CUSTOMER_ROLE) {
    await (await getAuth().$context).internalAdapter.deleteSession(sessionToken);
    return invalid(API_OAUTH2_FAILURES.refused);
  }
  return ok({
    account,
    sessionId,
    sessionExpiresAt,
    meta: {
      id: text(claims.sub),
      name: text(claims.name),
      username: text(claims.preferred_username),
      email: text(claims.email),
      avatarURL: text(claims.picture),
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiry: tokens.expiresIn === null ? null : new Date(Date.now() + tokens.expiresIn * 1000),
      rawUser: claims,
      isNew: !existing,
    },
  });
}
