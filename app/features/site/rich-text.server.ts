import { renderRichText, type RenderRichTextOptions } from "~/lib/rich-text/render.server";
import { factTokenExpander } from "~/services/site-config/fact-tokens";
import { richTextImageResolver } from "./media/rich-text-images.server";
import { getSiteFacts } from "./site-facts.server";

// How the site renders a stored long text: its library images (docs/decisions/0050) and the business
// facts it names, "{horario_en_frase}", from the published `ajustes` record (docs/decisions/0087).

/** The render options for `documents`: their images, looked up at once, and the facts of Ajustes. */
export async function siteRichTextOptions(...documents: unknown[]): Promise<RenderRichTextOptions> {
  const [resolveImage, facts] = await Promise.all([richTextImageResolver(...documents), getSiteFacts()]);
  return { resolveImage, resolveText: factTokenExpander(facts) };
}

/** One stored long text as sanitized HTML, with its library images and the facts it names. */
export async function renderSiteRichText(value: Parameters<typeof renderRichText>[0]): Promise<string> {
  return renderRichText(value, await siteRichTextOptions(value));
}
