import type { Route } from "./+types/modelo";
import { getSessionUser, staffMayUse } from "~/features/accounts/index.server";
import { getModelFile } from "~/features/catalogue/index.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";
import { storedFileHeaders } from "~/services/files/serve-headers.server";

// A product's CAD downloads and drawing: /catalogo/<slug>/cad/<fingerprint>/modelo.step|modelo.stl|dibujo.svg
// (docs/decisions/0025). STEP and STL are downloads; the drawing is an image the page shows (and a
// download when opened on its own).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const found = await getModelFile({
    slug: params.slug,
    fingerprint: params.fingerprint,
    fileName: params.file,
    mayViewInactive: async () => staffMayUse((await getSessionUser(requestMeta(request, context)))?.role, "productos"),
  });
  if (!found) notFound(request);
  return new Response(found.file.body, {
    headers: storedFileHeaders({
      type: found.type,
      name: found.downloadName,
      size: found.file.size,
      // The drawing is made here, never uploaded: an image the page shows, a download when opened.
      ownSvg: found.type === "image/svg+xml",
      cacheControl: found.visibility === "public" ? "public, max-age=31536000, immutable" : "private, no-store",
      lastModified: found.file.storedAt,
    }),
  });
}
