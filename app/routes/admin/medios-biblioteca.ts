import type { Route } from "./+types/medios-biblioteca";
import { requireStaffApiArea } from "~/features/accounts/guards.server";
import { listMediaViews } from "~/features/site/media/media-library.server";
import { requestMeta } from "~/lib/request-meta";

// The media library for the content editor's picker (docs/decisions/0050): JSON, for staff with
// the content area only (401 or 403 as JSON otherwise). `?buscar=` looks in the alt text (and the
// uploaded name), as /admin/medios does.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffApiArea(requestMeta(request, context), "contenido");
  const search = (new URL(request.url).searchParams.get("buscar") ?? "").slice(0, 100);
  const images = await listMediaViews(search);
  return Response.json({ buscar: search, imagenes: images }, { headers: { "Cache-Control": "private, no-store" } });
}
