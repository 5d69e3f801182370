import { mediaUrl, type MediaFormat, type MediaView } from "~/lib/media";
import { richTextImageIds } from "~/lib/rich-text/image-ids";
import type { RichTextImageSource } from "~/lib/rich-text/render.server";
import { mediaViews } from "./media-library.server";

// Images of the library inside long texts (docs/decisions/0050): the stored node keeps the media id
// and its alt text; here the ids of the texts about to be rendered are looked up in one query and
// each becomes a <picture> (AVIF, then WebP) with its size. An id no longer in the library renders
// nothing.

/** A long text's column is at most about 45rem wide; narrower screens use the whole width. */
const RICH_TEXT_SIZES = "(min-width: 768px) 720px, 100vw";

/** How the renderer shows one library image: AVIF first, WebP as the `<img>` and its fallback. */
export function richTextImageSource(image: MediaView): RichTextImageSource {
  const widths = image.widths.length ? image.widths : [image.width];
  const srcset = (format: MediaFormat) => widths.map((width) => `${mediaUrl(image.id, width, format)} ${width}w`).join(", ");
  return {
    src: mediaUrl(image.id, widths.at(-1)!, "webp"),
    srcset: srcset("webp"),
    sizes: RICH_TEXT_SIZES,
    width: image.width,
    height: image.height,
    sources: [{ type: "image/avif", srcset: srcset("avif") }],
  };
}

export type RichTextImageResolver = (mediaId: string) => RichTextImageSource | null;

/** A resolver for every image of `documents` (stored documents or their JSON), loaded at once. */
export async function richTextImageResolver(...documents: unknown[]): Promise<RichTextImageResolver> {
  const ids = richTextImageIds(...documents);
  const views = ids.length ? await mediaViews(ids) : new Map<string, MediaView>();
  return (mediaId) => {
    const view = views.get(mediaId);
    return view ? richTextImageSource(view) : null;
  };
}
