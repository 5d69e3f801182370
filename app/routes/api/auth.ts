import type { Route } from "./+types/auth";
import { handleAuthRequest } from "~/features/accounts/auth-api.server";
import { requestMeta } from "~/lib/request-meta";

// better-auth's HTTP API (/api/auth/*): sign-in for API clients (bearer tokens) and its own endpoints.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleAuthRequest(request, requestMeta(request, context).ip);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleAuthRequest(request, requestMeta(request, context).ip);
}
