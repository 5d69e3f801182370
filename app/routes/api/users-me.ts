import type { Route } from "./+types/users-me";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { getCurrentUserPayload, parsePopulate } from "~/features/accounts/users-me.server";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages } from "~/lib/result";

// GET /api/users/me[?populate=profile,providers] — cookie or `Authorization: Bearer <token>`.
export async function loader({ request, context }: Route.LoaderArgs) {
  const populate = parsePopulate(new URL(request.url).searchParams.get("populate"));
  if (!populate.ok) return Response.json({ code: 400, message: failureMessages(populate).formErrors.join(" ") }, { status: 400 });
  const payload = await getCurrentUserPayload(await getSessionUser(requestMeta(request, context)), populate.value);
  if (!payload) return Response.json({ code: 401, message: "No hay una sesión iniciada." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  return Response.json({ code: 200, data: payload }, { headers: { "Cache-Control": "no-store" } });
}
