import type { Route } from "./+types/medios-variante";
import { getMediaFile } from "~/features/site/media/media-file.server";
import { notFound } from "~/lib/errors";
import { storedFileHeaders } from "~/services/files/serve-headers.server";

// A library image's variant, public: /medios/<id>/800.avif, /medios/<id>/800-16x9.webp. A whole
// image's variant never changes for its id, so it is cached for a year; a crop follows the focal
// point, which staff may move, so it is cached for a day (docs/decisions/0046).
export async function loader({ request, params }: Route.LoaderArgs) {
  const file = await getMediaFile(params.id, params.variant);
  if (!file) notFound(request);
  const cropped = params.variant.includes("x");
  return new Response(new Uint8Array(file.body), {
    headers: storedFileHeaders({
      type: file.type,
      name: params.variant,
      size: file.body.length,
      inline: true,
      cacheControl: cropped ? "public, max-age=86400" : "public, max-age=31536000, immutable",
    }),
  });
}
