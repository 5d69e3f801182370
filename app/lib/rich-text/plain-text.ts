import type { RichTextNode } from "./document";

// The words of a long text without its formatting: for search, history diffs and meta
// descriptions. Blocks (paragraphs, headings, list items, table rows) end a line.

const BLOCKS = new Set(["root", "paragraph", "heading", "quote", "list", "listitem", "table", "tablerow"]);

function walk(node: RichTextNode, out: string[]): void {
  if (node.type === "text" || node.type === "tab") {
    out.push(typeof node.text === "string" ? node.text : "");
    return;
  }
  if (node.type === "linebreak") {
    out.push("\n");
    return;
  }
  const children = Array.isArray(node.children) ? node.children : [];
  if (node.type === "tablerow") {
    const cells = children.map((cell) => {
      const parts: string[] = [];
      walk(cell, parts);
      return parts.join("").replace(/\s*\n\s*/g, " ").trim();
    });
    out.push(cells.join("\t"), "\n");
    return;
  }
  for (const child of children) walk(child, out);
  if (BLOCKS.has(node.type)) out.push("\n");
}

/** The text of a document (or of any node), one block per line, without empty lines. */
export function plainText(document: { root: RichTextNode } | RichTextNode | null | undefined): string {
  if (!document) return "";
  const node = "root" in document && typeof document.root === "object" ? (document.root as RichTextNode) : (document as RichTextNode);
  const out: string[] = [];
  walk(node, out);
  return out
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}
