import { data, redirect } from "react-router";
import type { Route } from "./+types/connect";
import { startProviderSignIn } from "~/features/accounts/provider-sign-in.server";
import { ERROR_TITLES } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { safeRedirect } from "~/lib/safe-redirect";

// /connect/{provider}: starts the provider sign-in (state cookie set here, checked at the callback).
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/cuenta");
  const popup = url.searchParams.get("popup") === "1";
  const done = `/auth/listo?redirectTo=${encodeURIComponent(redirectTo)}${popup ? "&popup=1" : ""}`;
  const result = await startProviderSignIn(requestMeta(request, context), { providerId: params.provider, callbackPath: done });
  if (!result.ok) {
    const status = failureStatus(result);
    throw data({ statusCode: status, statusMessage: ERROR_TITLES[status], message: failureMessages(result).formErrors.join(" ") }, { status });
  }
  const headers = new Headers();
  for (const cookie of result.value.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  throw redirect(result.value.url, { headers });
}

// A UI route (not a resource route), so a refused provider renders the shared Spanish error page
// with status 400 instead of raw JSON. The loader always redirects or throws; this never renders.
export default function ConnectPage() {
  return null;
}
