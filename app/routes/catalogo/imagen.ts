import type { Route } from "./+types/imagen";
import { getSessionUser, staffMayUse } from "~/features/accounts/index.server";
import { getProductImageFile } from "~/features/catalogue/image-file.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";
import { storedFileHeaders } from "~/services/files/serve-headers.server";

// A product photo's WebP variant: /imagenes/productos/<image id>/640.webp. An image id never gets
// other bytes (a new upload is a new id), so active products' photos are cached for a year;
// an inactive product's are for staff only and never stored by shared caches.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const file = await getProductImageFile({
    imageId: params.imageId,
    fileName: params.file,
    // Only an inactive product's photo asks who is looking.
    mayViewInactive: async () => staffMayUse((await getSessionUser(requestMeta(request, context)))?.role, "productos"),
  });
  if (!file) notFound(request);
  // A photo we re-encoded as WebP: shown in the page, still sandboxed and never sniffed.
  return new Response(new Uint8Array(file.body), {
    headers: storedFileHeaders({
      type: "image/webp",
      name: params.file,
      size: file.body.length,
      inline: true,
      cacheControl: file.visibility === "public" ? "public, max-age=31536000, immutable" : "private, no-store",
    }),
  });
}
