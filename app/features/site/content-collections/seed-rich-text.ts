import { marked, type Token, type Tokens } from "marked";
import type { RichTextDocument, RichTextNode } from "~/lib/rich-text/document";
import { safeLink } from "~/lib/rich-text/links";

// Today's texts in the editor's format (Lexical's serialized editor state), for the seeds: plain
// paragraphs from the content modules, and the legal pages' Markdown through marked's lexer (its
// tokens, never HTML). Pure and browser-safe, because the collections that call it ship to the
// editor; the server-side import of pasted HTML and Markdown lives in app/lib/rich-text.

const TEXT_FORMAT = { bold: 1, italic: 2, strikethrough: 4, code: 16 } as const;

const element = (type: string, children: RichTextNode[], extra: Record<string, unknown> = {}): RichTextNode => ({
  children,
  direction: null,
  format: "",
  indent: 0,
  type,
  version: 1,
  ...extra,
});

export function textNode(text: string, format = 0): RichTextNode {
  return { detail: 0, format, mode: "normal", style: "", text, type: "text", version: 1 };
}

export function paragraphNode(children: RichTextNode[]): RichTextNode {
  return element("paragraph", children, { textFormat: 0, textStyle: "" });
}

export function headingNode(tag: "h2" | "h3" | "h4", text: string): RichTextNode {
  return element("heading", [textNode(text)], { tag });
}

export function richTextDocument(blocks: RichTextNode[]): RichTextDocument {
  return { root: { ...element("root", blocks), type: "root", children: blocks } };
}

/** Paragraphs of plain text, one per string. */
export function paragraphsDocument(paragraphs: readonly string[]): RichTextDocument {
  return richTextDocument(paragraphs.map((paragraph) => paragraphNode([textNode(paragraph)])));
}

/** Adjacent text of the same format is one node, as the editor keeps it. */
function mergeTexts(nodes: RichTextNode[]): RichTextNode[] {
  const merged: RichTextNode[] = [];
  for (const node of nodes) {
    const last = merged.at(-1);
    if (node.type === "text" && last?.type === "text" && last.format === node.format) {
      merged[merged.length - 1] = { ...last, text: `${String(last.text)}${String(node.text)}` };
    } else if (node.type !== "text" || node.text !== "") {
      merged.push(node);
    }
  }
  return merged;
}

function inline(tokens: Token[] | undefined, format = 0): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "strong":
        out.push(...inline((token as Tokens.Strong).tokens, format | TEXT_FORMAT.bold));
        break;
      case "em":
        out.push(...inline((token as Tokens.Em).tokens, format | TEXT_FORMAT.italic));
        break;
      case "del":
        out.push(...inline((token as Tokens.Del).tokens, format | TEXT_FORMAT.strikethrough));
        break;
      case "codespan":
        out.push(textNode((token as Tokens.Codespan).text, format | TEXT_FORMAT.code));
        break;
      case "br":
        out.push({ type: "linebreak", version: 1 });
        break;
      case "link": {
        const link = token as Tokens.Link;
        const safe = safeLink(link.href);
        // A link the site would not follow (javascript:, data:) keeps its words and loses the link.
        if (safe) out.push(element("link", mergeTexts(inline(link.tokens, format)), { rel: null, target: null, title: link.title ?? null, url: safe.href }));
        else out.push(...inline(link.tokens, format));
        break;
      }
      case "html":
        // Raw HTML in Markdown is not carried over: its tags go, the text between them stays.
        break;
      case "text": {
        const text = token as Tokens.Text;
        out.push(...(text.tokens ? inline(text.tokens, format) : [textNode(text.text, format)]));
        break;
      }
      default:
        if ("text" in token && typeof token.text === "string") out.push(textNode(token.text, format));
    }
  }
  return mergeTexts(out);
}

function listNode(list: Tokens.List, depth = 0): RichTextNode {
  const ordered = list.ordered;
  const start = ordered && typeof list.start === "number" ? list.start : 1;
  const items: RichTextNode[] = [];
  let value = start;
  for (const item of list.items) {
    const content: RichTextNode[] = [];
    const nested: RichTextNode[] = [];
    for (const token of item.tokens) {
      if (token.type === "list") nested.push(listNode(token as Tokens.List, depth + 1));
      else if (token.type === "text" || token.type === "paragraph") {
        if (content.length > 0) content.push({ type: "linebreak", version: 1 });
        const block = token as Tokens.Text | Tokens.Paragraph;
        content.push(...(block.tokens ? inline(block.tokens) : [textNode(block.text)]));
      }
    }
    // Lexical records an item's nesting level in its indent.
    items.push(element("listitem", mergeTexts(content), { indent: depth, value }));
    value += 1;
    // The editor keeps a nested list in an item of its own, right after its parent item.
    for (const list of nested) items.push(element("listitem", [list], { indent: depth, value }));
  }
  return element("list", items, { listType: ordered ? "number" : "bullet", start, tag: ordered ? "ol" : "ul" });
}

function blocks(tokens: Token[]): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading;
        // The page title is its only h1: Markdown's # and ## both become h2.
        const tag = heading.depth <= 2 ? "h2" : heading.depth === 3 ? "h3" : "h4";
        out.push(element("heading", inline(heading.tokens), { tag }));
        break;
      }
      case "paragraph":
        out.push(paragraphNode(inline((token as Tokens.Paragraph).tokens)));
        break;
      case "list":
        out.push(listNode(token as Tokens.List));
        break;
      case "blockquote":
        out.push(element("quote", blocks((token as Tokens.Blockquote).tokens).flatMap((block) => block.children ?? [])));
        break;
      case "code":
        out.push(paragraphNode([textNode((token as Tokens.Code).text, TEXT_FORMAT.code)]));
        break;
      case "text": {
        const text = token as Tokens.Text;
        out.push(paragraphNode(text.tokens ? inline(text.tokens) : [textNode(text.text)]));
        break;
      }
      default:
        // space, hr, html: nothing to carry over.
        break;
    }
  }
  return out;
}

/** Markdown (headings, paragraphs, lists, bold, italics, links) as a rich-text document. */
export function markdownToRichText(markdown: string): RichTextDocument {
  return richTextDocument(blocks(marked.lexer(markdown, { gfm: true })));
}
