import type { Route } from "./+types/modelo";
import { getSessionUser, isStaff } from "~/features/accounts/index.server";
import { getModelFile } from "~/features/catalogue/index.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";

// A product's CAD downloads and drawing: /catalogo/<slug>/cad/<fingerprint>/modelo.step|modelo.stl|dibujo.svg
// (docs/decisions/0025). STEP and STL are downloads; the drawing is an image the page shows.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const found = await getModelFile({
    slug: params.slug,
    fingerprint: params.fingerprint,
    fileName: params.file,
    mayViewInactive: async () => isStaff(await getSessionUser(requestMeta(request, context))),
  });
  if (!found) notFound(request);
  const isDrawing = found.type === "image/svg+xml";
  return new Response(found.file.body, {
    headers: {
      "Content-Type": found.type,
      "Content-Length": String(found.file.size),
      "Content-Disposition": `${isDrawing ? "inline" : "attachment"}; filename="${found.downloadName}"`,
      "Cache-Control": found.visibility === "public" ? "public, max-age=31536000, immutable" : "private, no-store",
      "Last-Modified": found.file.storedAt.toUTCString(),
      "X-Content-Type-Options": "nosniff",
      // The drawing is made here, never uploaded; even so it runs nothing, opened on its own or not.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
