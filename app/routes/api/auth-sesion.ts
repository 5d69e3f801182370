import type { Route } from "./+types/auth-sesion";
import { handleAuthRequest } from "~/features/accounts/auth-api.server";
import { requestMeta } from "~/lib/request-meta";

// better-auth's own HTTP API (/api/sesion/*, AUTH_BASE_PATH): its endpoints for API clients (bearer
// tokens) and the provider callbacks /auth/{provider}/callback hands on. `/api/auth/*` is the seed's
// content-service auth API (routes/api/auth.ts, docs/decisions/0017).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleAuthRequest(request, requestMeta(request, context).ip);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleAuthRequest(request, requestMeta(request, context).ip);
}
