import { createHeadlessEditor } from "@lexical/headless";
import type { RichTextDocument, RichTextNode } from "./document";
import { richTextNodes } from "./nodes";

// Helpers for the tests of the Markdown and HTML imports (not shipped: only tests import this).

export type Outline = string | { text: string; format: number } | Outline[];

/** A document as a compact tree: ["h2", "words"], ["a <url>", …], { text, format } for formatted text. */
export function outline(node: RichTextNode): Outline {
  if (node.type === "text") return node.format ? { text: String(node.text), format: Number(node.format) } : String(node.text);
  if (node.type === "linebreak") return "br";
  const label =
    node.type === "heading" ? String(node.tag)
    : node.type === "paragraph" ? "p"
    : node.type === "list" ? (node.listType === "number" ? `ol${node.start !== 1 ? ` start=${String(node.start)}` : ""}` : "ul")
    : node.type === "listitem" ? "li"
    : node.type === "link" ? `a ${String(node.url)}`
    : node.type === "tablecell" ? (node.headerState ? "th" : "td")
    : node.type === "image" ? `img ${String(node.mediaId)} ${String(node.alt)}`
    : node.type;
  return [label, ...(node.children ?? []).map(outline)];
}

export const outlineOf = (document: RichTextDocument): Outline[] => document.root.children.map(outline);

/** What Lexical itself makes of a document: parsed into an editor state with every node kind of a long text, and serialized again. */
export function throughLexical(document: RichTextDocument): unknown {
  const editor = createHeadlessEditor({
    nodes: [...richTextNodes],
    onError: (error) => {
      throw error;
    },
  });
  return JSON.parse(JSON.stringify(editor.parseEditorState(JSON.stringify(document)).toJSON()));
}
