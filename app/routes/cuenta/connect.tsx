import { data, redirect } from "react-router";
import type { Route } from "./+types/connect";
import { startProviderSignIn } from "~/features/accounts/accounts.server";
import { ERROR_TITLES } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";

// /connect/{provider}: starts the provider sign-in (state cookie set here, checked at the callback).
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/cuenta");
  const popup = url.searchParams.get("popup") === "1";
  const done = `/auth/listo?redirectTo=${encodeURIComponent(redirectTo)}${popup ? "&popup=1" : ""}`;
  const result = await startProviderSignIn(requestMeta(request, context), params.provider, done);
  if (!result.ok) {
    throw data({ statusCode: 400, statusMessage: ERROR_TITLES[400], message: result.message }, { status: 400 });
  }
  const headers = new Headers();
  for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  throw redirect(result.value.url, { headers });
}

// A UI route (not a resource route), so a refused provider renders the shared Spanish error page
// with status 400 instead of raw JSON. The loader always redirects or throws; this never renders.
export default function ConnectPage() {
  return null;
}
