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
    // The browser comes back from better-auth's callback with the new session's cookie.
    const code = await issueApiProviderCode(meta, providerId);
    if (!code.ok) return strapiError("ForbiddenError", "Forbidden");
    headers.set("Location", `${callback}${callback.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(code.value)}`);
    return new Response(null, { status: 302, headers });
  }

  // Always a sign-in, never "link to the account of this browser's cookie" (the API has no cookie).
  const listo = `/api/connect/${encodeURIComponent(providerId)}/listo?callback=${encodeURIComponent(callback)}`;
  const started = await startProviderSignIn(apiClientMeta(meta), { providerId, callbackPath: listo });
  if (!started.ok) return strapiError("ApplicationError", STRAPI_MESSAGES.providerDisabled);
  for (const cookie of started.value.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  headers.set("Location", started.value.url);
  return new Response(null, { status: 302, headers });
}
