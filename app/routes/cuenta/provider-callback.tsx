import type { Route } from "./+types/provider-callback";
import { completeProviderSignIn } from "~/features/accounts/provider-sign-in.server";
import { requestMeta } from "~/lib/request-meta";

// GET /auth/{provider}/callback: the provider sends the browser back here; better-auth checks the
// state and code, links the account and sets the session, then redirects to /auth/listo or /auth/error.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return completeProviderSignIn(requestMeta(request, context), params.provider);
}
