import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account } from "~/db/schema/auth";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, ok, type Result } from "~/lib/result";
import { forwardHeaders, getSessionUser } from "./accounts.server";
import { authFailure } from "./auth-errors.server";
import { AUTH_BASE_PATH, getAuth } from "./auth.server";
import { handleAuthRequest } from "./auth-api.server";
import { getProvider, listProviders } from "./providers.server";

// Sign-in with Google, Microsoft or an OpenID Connect provider. Starting and completing it is part of
// the auth adapter: better-auth keeps the provider's state in a cookie and sets the session at the
// callback, so these take RequestMeta and hand back headers or a Response.

export interface LinkedProvider {
  id: string;
  name: string;
  linked: boolean;
}

/** Configured providers with whether this user has linked each; "credential" is the password. */
export async function listLinkedProviders(userId: string): Promise<{ providers: LinkedProvider[]; hasPassword: boolean }> {
  const rows = await getDb().select({ providerId: account.providerId }).from(account).where(eq(account.userId, userId));
  const linked = new Set(rows.map((row) => row.providerId));
  return {
    providers: listProviders().map((provider) => ({ id: provider.id, name: provider.name, linked: linked.has(provider.id) })),
    hasPassword: linked.has("credential"),
  };
}

const INVALID_PROVIDER = "Missing or invalid provider";

/** Starts a provider sign-in: the provider's authorization URL and the state cookie to set. */
export async function startProviderSignIn(
  meta: RequestMeta,
  input: { providerId: string; callbackPath: string },
): Promise<Result<{ url: string; headers: Headers }>> {
  const provider = getProvider(input.providerId);
  if (!provider) return invalid(INVALID_PROVIDER);
  const errorCallbackURL = "/auth/error";
  try {
    // Generic OpenID Connect providers are first-class social providers in better-auth 1.7.
    const body = { provider: provider.id, callbackURL: input.callbackPath, errorCallbackURL, disableRedirect: true };
    // Signed in ("Vincular" on /cuenta): link to this account. A sign-in would refuse to link an
    // unconfirmed account (better-auth's requireLocalEmailVerified) or switch to another account.
    const { headers, response } = (await getSessionUser(meta))
      ? await getAuth().api.linkSocialAccount({ body, headers: forwardHeaders(meta), returnHeaders: true })
      : await getAuth().api.signInSocial({ body, headers: forwardHeaders(meta), returnHeaders: true });
    const url = (response as { url?: string }).url;
    if (!url) return invalid(INVALID_PROVIDER);
    return ok({ url, headers });
  } catch (error) {
    return authFailure(error);
  }
}

/** Hands a provider's redirect back to better-auth's callback endpoint for that provider. */
export async function completeProviderSignIn(meta: RequestMeta, providerId: string): Promise<Response> {
  const incoming = new URL(meta.request.url);
  const target = new URL(`${AUTH_BASE_PATH}/callback/${encodeURIComponent(providerId)}${incoming.search}`, incoming.origin);
  return handleAuthRequest(new Request(target, { method: "GET", headers: meta.request.headers }), meta.ip);
}
