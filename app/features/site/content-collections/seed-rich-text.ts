import type { RichTextDocument } from "~/lib/rich-text/document";
import { paragraphNode, richTextDocument, textNode } from "~/lib/rich-text/from-markdown";

// Today's plain texts in the editor's format, for the seeds. The node builders and the Markdown
// import (the legal pages) are app/lib/rich-text/from-markdown.ts: pure and browser-safe, as the
// collections that call them ship to the editor.

/** Paragraphs of plain text, one per string. */
export function paragraphsDocument(paragraphs: readonly string[]): RichTextDocument {
  return richTextDocument(paragraphs.map((paragraph) => paragraphNode([textNode(paragraph)])));
}
