import { randomBytes } from "node:crypto";
import type { Route } from "./+types/strapi-connect";
import { issueApiProviderCode } from "~/features/accounts/api-accounts.server";
import { apiClientMeta } from "~/features/accounts/api-sessions.server";
import { startProviderSignIn } from "~/features/accounts/provider-sign-in.server";
import { getProvider } from "~/features/accounts/providers.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { STRAPI_MESSAGES, strapiError } from "./strapi-auth.server";

// The seed's provider sign-in (Strapi's /api/connect/{provider}, docs/decisions/0017), a browser
// flow over the site's own provider sign-in (the code behind /connect/{provider}):
//   GET /api/connect/{provider}[?callback=/path]  → the provider (better-auth's state cookie set)
//   … the provider → /auth/{provider}/callback (better-auth) → GET /api/connect/{provider}/listo
//   GET /api/connect/{provider}/listo             → {callback}?access_token=<one-time code>
// The front end then trades the code at GET /api/auth/{provider}/callback?access_token=… for
// {jwt, user}. `callback` is a path on this site (Strapi's default: /connect/{provider}/redirect).

/**
 * Marks the browser that started a flow here, so only that browser, coming back from the provider,
 * gets a code — a link to /listo from another site finds no mark and gets nothing, even for a
 * browser signed in on the site. HttpOnly, this path only, ten minutes, used once.
 */
const FLOW_COOKIE = "forja_api_connect";
const FLOW_SECONDS = 600;

function flowCookie(value: string, maxAge: number): string {
  return `${FLOW_COOKIE}=${value}; Path=/api/connect; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;
}

/** When this browser started its flow here, from its mark, or null. */
function flowStartedAt(request: Request): Date | null {
  const cookies = request.headers.get("cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${FLOW_COOKIE}=(\\d{10,16})\\.[A-Za-z0-9_-]+`).exec(cookies);
  return match ? new Date(Number(match[1])) : null;
}

function frontEndCallback(request: Request, providerId: string): string {
  return safeRedirect(new URL(request.url).searchParams.get("callback"), `/connect/${encodeURIComponent(providerId)}/redirect`);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const providerId = params.provider;
  if (!getProvider(providerId)) return strapiError("ApplicationError", STRAPI_MESSAGES.providerDisabled);
  const meta = requestMeta(request, context);
  const callback = frontEndCallback(request, providerId);
  const headers = new Headers({ "Cache-Control": "no-store" });

  if (new URL(request.url).pathname.endsWith("/listo")) {
    // The browser comes back from better-auth's callback with the new session's cookie: a session
    // opened since this browser started the flow.
    const startedAt = flowStartedAt(request);
    if (!startedAt) return strapiError("ForbiddenError", "Forbidden");
    const code = await issueApiProviderCode(meta, providerId, { sessionSince: startedAt });
    if (!code.ok) return strapiError("ForbiddenError", "Forbidden");
    headers.append("Set-Cookie", flowCookie("", 0));
    headers.set("Location", `${callback}${callback.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(code.value)}`);
    return new Response(null, { status: 302, headers });
  }

  // Always a sign-in, never "link to the account of this browser's cookie" (the API has no cookie).
  const listo = `/api/connect/${encodeURIComponent(providerId)}/listo?callback=${encodeURIComponent(callback)}`;
  const started = await startProviderSignIn(apiClientMeta(meta), { providerId, callbackPath: listo });
  if (!started.ok) return strapiError("ApplicationError", STRAPI_MESSAGES.providerDisabled);
  for (const cookie of started.value.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  // A second before now: the clock of the session row and ours are the same, but not the millisecond.
  headers.append("Set-Cookie", flowCookie(`${Date.now() - 1_000}.${randomBytes(12).toString("base64url")}`, FLOW_SECONDS));
  headers.set("Location", started.value.url);
  return new Response(null, { status: 302, headers });
}
