import type { Route } from "./+types/users-me";
import { getCurrentUserPayload, parsePopulate } from "~/features/accounts/accounts.server";
import { requestMeta } from "~/lib/request-meta";

// GET /api/users/me[?populate=profile,providers] — cookie or `Authorization: Bearer <token>`.
export async function loader({ request, context }: Route.LoaderArgs) {
  const populate = parsePopulate(new URL(request.url).searchParams.get("populate"));
  if (!populate.ok) return Response.json({ code: 400, message: populate.message }, { status: 400 });
  const payload = await getCurrentUserPayload(requestMeta(request, context), populate.value);
  if (!payload) return Response.json({ code: 401, message: "No hay una sesión iniciada." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  return Response.json({ code: 200, data: payload }, { headers: { "Cache-Control": "no-store" } });
}
