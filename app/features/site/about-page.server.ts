import type { RichTextNode } from "~/lib/rich-text/document";
import { richTextDocument } from "~/lib/rich-text/from-markdown";
import { plainText } from "~/lib/rich-text/plain-text";
import { renderRichText, type RenderRichTextOptions } from "~/lib/rich-text/render.server";
import { publishedRecord } from "~/services/content/published.server";
import { ABOUT_SLUG, paginas, type Pagina } from "./content-collections/paginas";
import { siteRichTextOptions } from "./rich-text.server";

// /about from the `paginas` record «about» (issue 16 §1, docs/decisions/0048). The page keeps its
// layout: the body is cut into sections at its subtitles (h2), each a block with its own heading;
// a section whose parts have their own headings (h3) shows them as cards, as «Cómo trabajamos»
// did; the figures go after the first section.

export interface AboutSection {
  /** The section's subtitle; null for text written before the first one. */
  title: string | null;
  /** What comes before its first card (or all of it, without cards). */
  html: string;
  cards: { title: string; html: string }[];
}

export interface AboutPage {
  title: string;
  description: string;
  headline: string;
  lead: string;
  figures: Pagina["cifras"];
  sections: AboutSection[];
}

const isHeading = (node: RichTextNode, tags: readonly string[]) => node.type === "heading" && tags.includes(String(node.tag));

/** Top-level blocks grouped under the heading that opens each group (none for the blocks before the first). */
function groupBy(nodes: readonly RichTextNode[], opens: (node: RichTextNode) => boolean): { heading: RichTextNode | null; nodes: RichTextNode[] }[] {
  const groups: { heading: RichTextNode | null; nodes: RichTextNode[] }[] = [];
  for (const node of nodes) {
    if (opens(node)) groups.push({ heading: node, nodes: [] });
    else if (groups.length === 0) groups.push({ heading: null, nodes: [node] });
    else groups.at(-1)!.nodes.push(node);
  }
  return groups;
}

const headingText = (node: RichTextNode | null) => plainText(node).replace(/\n/g, " ");

function section(heading: RichTextNode | null, nodes: RichTextNode[], options: RenderRichTextOptions): AboutSection {
  const render = (blocks: RichTextNode[]) => renderRichText(richTextDocument(blocks), options);
  const [first, ...parts] = groupBy(nodes, (node) => isHeading(node, ["h3"]));
  const intro = first && first.heading === null ? first : null;
  const cards = (intro ? parts : [first, ...parts]).filter((part) => part !== undefined);
  return {
    title: heading ? headingText(heading) : null,
    html: intro ? render(intro.nodes) : "",
    cards: cards.map((card) => ({ title: headingText(card.heading), html: render(card.nodes) })),
  };
}

/** The published about page; null when staff unpublished it. */
export async function getAboutPage(): Promise<AboutPage | null> {
  const record = await publishedRecord<Pagina>(paginas, ABOUT_SLUG);
  if (!record) return null;
  const page = record.data;
  const options = await siteRichTextOptions(page.cuerpo);
  // The renderer writes h1 as h2 (the page title is the only h1): both open a section.
  const sections = groupBy(page.cuerpo.root.children, (node) => isHeading(node, ["h1", "h2"]))
    .map((group) => section(group.heading, group.nodes, options))
    .filter((part) => part.title || part.html || part.cards.length > 0);
  return {
    title: page.titulo,
    description: page.descripcion,
    headline: page.titular || page.titulo,
    lead: page.entrada,
    figures: page.cifras,
    sections,
  };
}
