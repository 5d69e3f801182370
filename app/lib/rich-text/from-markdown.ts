import { marked, type Token, type Tokens } from "marked";
import type { RichTextDocument, RichTextNode } from "./document";
import { safeLink } from "./links";

// Markdown into the stored format (Lexical's serialized editor state), written as plain JSON from
// marked's tokens, never through HTML. Pure (no Lexical, no DOM): the record API imports Markdown
// with it on the server and the content collections' seeds, which may ship to the editor, build
// their texts with it. What it writes is what the editor saves for the same content, key order
// included: adjacent text of one format is one node, adjacent lists of one kind are one list,
// list items carry the value and indent Lexical gives them, and a paragraph's textFormat is its
// first text's (docs/decisions/0039). from-markdown.test.ts reads every result through Lexical.
// Raw HTML in Markdown keeps its words only; links go through safeLink.

/** Lexical's text format flags. */
const FORMAT = { bold: 1, italic: 2, strikethrough: 4, code: 16 } as const;

export type HeadingTag = "h2" | "h3" | "h4";

/** An element node as Lexical writes it: children, the node's own keys, then the common ones. */
function element(type: string, children: RichTextNode[], own: Record<string, unknown> = {}): RichTextNode {
  return { children, ...own, direction: null, format: "", indent: 0, type, version: 1 };
}

export function textNode(text: string, format = 0): RichTextNode {
  return { detail: 0, format, mode: "normal", style: "", text, type: "text", version: 1 };
}

function lineBreakNode(): RichTextNode {
  return { type: "linebreak", version: 1 };
}

export function paragraphNode(children: RichTextNode[]): RichTextNode {
  const firstText = children.find((child) => child.type === "text");
  return {
    children,
    direction: null,
    format: "",
    indent: 0,
    textFormat: typeof firstText?.format === "number" ? firstText.format : 0,
    textStyle: "",
    type: "paragraph",
    version: 1,
  };
}

/** A heading of plain words, or of inline nodes. */
export function headingNode(tag: HeadingTag, content: string | RichTextNode[]): RichTextNode {
  return element("heading", typeof content === "string" ? [textNode(content)] : content, { tag });
}

export function richTextDocument(blocks: RichTextNode[]): RichTextDocument {
  return { root: { ...element("root", blocks), type: "root", children: blocks } };
}

// ---------------------------------------------------------------- raw HTML: its words only

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
  aacute: "á", eacute: "é", iacute: "í", oacute: "ó", uacute: "ú", ntilde: "ñ", uuml: "ü",
  Aacute: "Á", Eacute: "É", Iacute: "Í", Oacute: "Ó", Uacute: "Ú", Ntilde: "Ñ", Uuml: "Ü",
  iexcl: "¡", iquest: "¿", laquo: "«", raquo: "»", ndash: "–", mdash: "—", hellip: "…",
  lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", middot: "·", deg: "°", copy: "©", reg: "®", times: "×",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      // As a browser reads them: NUL, surrogates and numbers past Unicode are the replacement character.
      return code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ? "\ufffd" : String.fromCodePoint(code);
    }
    return ENTITIES[body] ?? ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/** Elements whose content is never words (sanitize-html's nonTextTags): they go with everything inside them. */
const NOT_WORDS = new Set(["script", "style", "textarea", "option", "xmp"]);

const TAG_NAME = /\/?([a-z][^\s/>]*)/iy;

/** Where the tag opened at `start` ends (after its `>`): quoted attribute values may hold a `>`. */
function tagEnd(html: string, start: number): number {
  let at = start;
  while (at < html.length) {
    const char = html[at];
    if (char === ">") return at + 1;
    if (char === "=") {
      at += 1;
      while (at < html.length && /\s/.test(html[at] ?? "")) at += 1;
      const quote = html[at];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        if (close === -1) return html.length;
        at = close + 1;
      }
      continue;
    }
    at += 1;
  }
  return html.length;
}

/** Where the element's end tag starts ("</SCRIPT >" does, "</scriptx>" does not), or -1. */
function closingTag(html: string, tag: string, from: number): number {
  const end = new RegExp(`</${tag}(?=[\\s/>]|$)`, "gi");
  end.lastIndex = from;
  return end.exec(html)?.index ?? -1;
}

/**
 * The words of raw HTML in Markdown. Tags, comments and declarations go; so does the content of
 * script, style and the like. One pass, without backtracking, so a long or broken fragment costs
 * its length. What comes out is only ever text: it never becomes markup, a link or an attribute.
 */
function wordsOfHtml(html: string): string {
  let words = "";
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    if (open === -1) {
      words += html.slice(at);
      break;
    }
    words += html.slice(at, open);
    if (html.startsWith("<!--", open)) {
      const close = html.indexOf("-->", open + 2); // "<!-->" and "<!--->" are empty comments
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    const next = html[open + 1];
    // Comments, declarations, processing instructions and "</ p>" (a bogus comment to a browser).
    if (next === "!" || next === "?" || (next === "/" && !/[a-z]/i.test(html[open + 2] ?? ""))) {
      const close = html.indexOf(">", open);
      at = close === -1 ? html.length : close + 1;
      continue;
    }
    TAG_NAME.lastIndex = open + 1;
    const name = TAG_NAME.exec(html);
    if (!name) {
      words += "<"; // "a < b": not a tag
      at = open + 1;
      continue;
    }
    const end = tagEnd(html, TAG_NAME.lastIndex);
    at = end;
    const tag = (name[1] ?? "").toLowerCase();
    // A self-closing slash does not end a script in HTML: its content still goes.
    if (name[0].startsWith("/") || !NOT_WORDS.has(tag)) continue;
    const close = closingTag(html, tag, end);
    at = close === -1 ? html.length : tagEnd(html, close + 2 + tag.length);
  }
  return decodeEntities(words);
}

// ---------------------------------------------------------------- inline

/** Text as Lexical keeps it: newlines are line breaks, and no text node is empty. */
function text(value: string, format: number): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  value.split("\n").forEach((line, index) => {
    if (index > 0) nodes.push(lineBreakNode());
    if (line !== "") nodes.push(textNode(line, format));
  });
  return nodes;
}

/** What Lexical's normalization does to a node's children: adjacent text of one format is one node, empty text goes. */
function normalized(nodes: RichTextNode[]): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const node of nodes) {
    if (node.type === "text" && node.text === "") continue;
    const last = out.at(-1);
    if (node.type === "text" && last?.type === "text" && last.format === node.format) out[out.length - 1] = { ...last, text: `${String(last.text)}${String(node.text)}` };
    else out.push(node);
  }
  return out;
}

/** Spaces left at a block's edges by what was dropped (an inline tag, an outside image) go too. */
function trimEdges(nodes: RichTextNode[]): RichTextNode[] {
  const trimmed = [...nodes];
  const first = trimmed[0];
  if (first?.type === "text") trimmed[0] = { ...first, text: String(first.text).replace(/^\s+/, "") };
  const lastIndex = trimmed.length - 1;
  const last = trimmed[lastIndex];
  if (last?.type === "text") trimmed[lastIndex] = { ...last, text: String(last.text).replace(/\s+$/, "") };
  return trimmed.filter((node) => node.type !== "text" || node.text !== "");
}

function inline(tokens: Token[] | undefined, format: number): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "text":
        nodes.push(...("tokens" in token && token.tokens ? inline(token.tokens, format) : text(decodeEntities(token.text), format)));
        break;
      case "escape":
        nodes.push(...text(token.text, format));
        break;
      case "strong":
        nodes.push(...inline(token.tokens, format | FORMAT.bold));
        break;
      case "em":
        nodes.push(...inline(token.tokens, format | FORMAT.italic));
        break;
      case "del":
        nodes.push(...inline(token.tokens, format | FORMAT.strikethrough));
        break;
      case "codespan":
        nodes.push(...text(decodeEntities(token.text), format | FORMAT.code));
        break;
      case "br":
        nodes.push(lineBreakNode());
        break;
      case "link": {
        const children = inline(token.tokens, format);
        const link = safeLink(token.href);
        // javascript:, data:… keep the words only.
        if (link) nodes.push(element("link", normalized(children), { rel: null, target: null, title: token.title || null, url: link.href }));
        else nodes.push(...children);
        break;
      }
      case "image":
        // Markdown images point at files outside the media library: their alt text stays as words.
        if (token.text) nodes.push(...text(decodeEntities(token.text), format));
        break;
      case "html":
        // Inline tags (<b>, </b>) carry no words; anything else keeps its text only.
        nodes.push(...text(wordsOfHtml(token.text), format));
        break;
      default:
        if ("text" in token && typeof token.text === "string") nodes.push(...text(decodeEntities(token.text), format));
    }
  }
  return nodes;
}

// ---------------------------------------------------------------- blocks

function paragraphOf(nodes: RichTextNode[]): RichTextNode | null {
  const children = normalized(trimEdges(nodes));
  return children.length > 0 ? paragraphNode(children) : null;
}

/** Blocks that have no node of their own inside a list item or quote (code, HTML, a list in a quote): their words. */
function blockWords(token: Token): RichTextNode[] {
  if (token.type === "code") return text(token.text, FORMAT.code);
  if (token.type === "html") return text(wordsOfHtml(token.text).trim(), 0);
  if (token.type === "list") {
    // One line per item, nested items included.
    const lines = (token as Tokens.List).items.map((item) => trimEdges(item.tokens.flatMap((child) => (child.type === "text" || child.type === "paragraph" ? inline("tokens" in child ? child.tokens : undefined, 0) : blockWords(child)))));
    return lines.filter((line) => line.length > 0).flatMap((line, index) => (index > 0 ? [lineBreakNode(), ...line] : line));
  }
  if ("tokens" in token && token.tokens) return inline(token.tokens, 0);
  return "text" in token && typeof token.text === "string" ? text(decodeEntities(token.text), 0) : [];
}

function listNode(token: Tokens.List): RichTextNode {
  const ordered = token.ordered;
  const start = ordered && typeof token.start === "number" ? token.start : 1;
  const items: RichTextNode[] = [];
  for (const item of token.items) {
    const content: RichTextNode[] = [];
    const nested: RichTextNode[] = [];
    for (const child of item.tokens) {
      if (child.type === "list") {
        nested.push(listNode(child as Tokens.List));
        continue;
      }
      const words = child.type === "text" || child.type === "paragraph" ? inline("tokens" in child ? child.tokens : undefined, 0) : blockWords(child);
      if (words.length === 0) continue;
      if (content.length > 0) content.push(lineBreakNode());
      content.push(...trimEdges(words));
    }
    items.push(listItemNode(normalized(content)));
    // Lexical keeps a nested list in an item of its own, right after the item it belongs to.
    for (const list of nested) items.push(listItemNode([list]));
  }
  // value and indent are Lexical's numbering: set once the lists are final (numberList).
  return element("list", items, { listType: ordered ? "number" : "bullet", start, tag: ordered ? "ol" : "ul" });
}

function listItemNode(children: RichTextNode[]): RichTextNode {
  return { children, indent: 0, value: 1, direction: null, format: "", type: "listitem", version: 1 };
}

const isNestedHolder = (item: RichTextNode | undefined): item is RichTextNode & { children: [RichTextNode] } => item?.children?.[0]?.type === "list";

/** Lexical's mergeLists: the second list's items join the first, and two nested lists meeting there become one. */
function mergeLists(first: RichTextNode, second: RichTextNode): void {
  const firstItems = first.children ?? [];
  const secondItems = [...(second.children ?? [])];
  const last = firstItems.at(-1);
  const next = secondItems[0];
  if (isNestedHolder(last) && isNestedHolder(next) && last.children[0].listType === next.children[0].listType) {
    mergeLists(last.children[0], next.children[0]);
    secondItems.shift();
  }
  first.children = [...firstItems, ...secondItems];
}

/** Lexical's ListNode transform: a list followed by one of the same kind takes its items. */
function mergeAdjacentLists(blocks: RichTextNode[]): RichTextNode[] {
  const out: RichTextNode[] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (block.type === "list" && last?.type === "list" && last.listType === block.listType) mergeLists(last, block);
    else out.push(block);
  }
  return out;
}

/** Each item's value counts from the list's start, skipping the items that hold a nested list; indent is the nesting depth. */
function numberList(list: RichTextNode, depth: number): void {
  let value = Number(list.start);
  for (const item of list.children ?? []) {
    item.indent = depth;
    item.value = value;
    if (isNestedHolder(item)) numberList(item.children[0], depth + 1);
    else value += 1;
  }
}

function tableNode(token: Tokens.Table): RichTextNode {
  const row = (cells: Tokens.TableCell[], header: boolean) =>
    element(
      "tablerow",
      cells.map((cell) => element("tablecell", [paragraphNode(normalized(inline(cell.tokens, 0)))], { backgroundColor: null, colSpan: 1, headerState: header ? 1 : 0, rowSpan: 1 })),
    );
  return element("table", [row(token.header, true), ...token.rows.map((cells) => row(cells, false))]);
}

function blocks(tokens: Token[]): RichTextNode[] {
  const out: RichTextNode[] = [];
  const push = (node: RichTextNode | null) => {
    if (node) out.push(node);
  };
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "hr":
      case "def":
        break;
      case "heading": {
        // The page title is the only h1: # and ## are h2, deeper headings stop at h4.
        const tag = `h${Math.min(Math.max(token.depth, 2), 4)}` as HeadingTag;
        const children = normalized(trimEdges(inline(token.tokens, 0)));
        if (children.length > 0) out.push(headingNode(tag, children));
        break;
      }
      case "paragraph":
      case "text":
        push(paragraphOf(inline(token.tokens, 0)));
        break;
      case "blockquote": {
        const children: RichTextNode[] = [];
        for (const child of token.tokens ?? []) {
          const words = child.type === "paragraph" ? inline(child.tokens, 0) : blockWords(child);
          if (words.length === 0) continue;
          if (children.length > 0) children.push(lineBreakNode(), lineBreakNode());
          children.push(...words);
        }
        const quote = normalized(children);
        if (quote.length > 0) out.push(element("quote", quote));
        break;
      }
      case "list":
        out.push(listNode(token as Tokens.List));
        break;
      case "table":
        out.push(tableNode(token as Tokens.Table));
        break;
      case "code":
        push(paragraphOf(text(token.text, FORMAT.code)));
        break;
      case "html":
        for (const part of wordsOfHtml(token.text).trim().split(/\n\s*\n/)) push(paragraphOf(text(part.trim(), 0)));
        break;
      default:
        push(paragraphOf(blockWords(token)));
    }
  }
  const merged = mergeAdjacentLists(out);
  for (const block of merged) if (block.type === "list") numberList(block, 0);
  return merged;
}

/** A Markdown text (the legal pages as they were written, a record sent as Markdown) as a rich text document. */
export function markdownToRichText(markdown: string): RichTextDocument {
  return richTextDocument(blocks(marked.lexer(markdown, { gfm: true })));
}
