import { createHeadlessEditor } from "@lexical/headless";
import { $generateNodesFromDOM } from "@lexical/html";
import { $createLinkNode } from "@lexical/link";
import { $createListItemNode, $createListNode, type ListNode } from "@lexical/list";
import { $createHeadingNode, $createQuoteNode, type HeadingTagType } from "@lexical/rich-text";
import { $createTableCellNode, $createTableNode, $createTableRowNode, TableCellHeaderStates } from "@lexical/table";
import {
  $createLineBreakNode,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $isDecoratorNode,
  $isElementNode,
  $isTextNode,
  type ElementNode,
  type LexicalEditor,
  type LexicalNode,
  type TextFormatType,
} from "lexical";
import { marked, type Token, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { cleanPastedHtml } from "./clean-paste";
import type { RichTextDocument } from "./document";
import { safeLink } from "./links";
import { richTextNodes } from "./nodes";

// Markdown and HTML into the stored format (Lexical's JSON), on the server. Both build real Lexical
// nodes in a headless editor, so what comes out is exactly what the editor itself would save
// (docs/decisions/0039). Markdown is read from marked's tokens, never through HTML; raw HTML
// inside Markdown keeps its words only.

function headlessEditor(): LexicalEditor {
  return createHeadlessEditor({
    namespace: "forja-import",
    nodes: [...richTextNodes],
    onError: (error) => {
      throw error;
    },
  });
}

/** Runs `build` on an empty document and returns the document it left. */
function buildDocument(build: (editor: LexicalEditor) => void): RichTextDocument {
  const editor = headlessEditor();
  editor.update(
    () => {
      $getRoot().clear();
      build(editor);
    },
    { discrete: true },
  );
  return editor.getEditorState().toJSON() as unknown as RichTextDocument;
}

/** Appends nodes to the root, gathering inline ones (text, links, images) into paragraphs. */
function $appendBlocks(nodes: LexicalNode[]): void {
  const root = $getRoot();
  let paragraph: ElementNode | null = null;
  for (const node of nodes) {
    const inline = $isTextNode(node) || (($isElementNode(node) || $isDecoratorNode(node)) && node.isInline()) || node.getType() === "linebreak";
    if (inline) {
      if (!paragraph) {
        paragraph = $createParagraphNode();
        root.append(paragraph);
      }
      paragraph.append(node);
      continue;
    }
    paragraph = null;
    root.append(node);
  }
}

// ---------------------------------------------------------------- Markdown

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/** The words of raw HTML in Markdown: tags and what script/style hold are dropped. */
function wordsOfHtml(html: string): string {
  return decodeEntities(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }));
}

type Formats = ReadonlySet<TextFormatType>;

function $text(text: string, formats: Formats): LexicalNode[] {
  const nodes: LexicalNode[] = [];
  text.split("\n").forEach((line, index) => {
    if (index > 0) nodes.push($createLineBreakNode());
    if (line === "") return;
    const node = $createTextNode(line);
    for (const format of formats) node.toggleFormat(format);
    nodes.push(node);
  });
  return nodes;
}

function $inline(tokens: Token[] | undefined, formats: Formats): LexicalNode[] {
  const nodes: LexicalNode[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "text":
        nodes.push(...("tokens" in token && token.tokens ? $inline(token.tokens, formats) : $text(decodeEntities(token.text), formats)));
        break;
      case "escape":
        nodes.push(...$text(token.text, formats));
        break;
      case "strong":
        nodes.push(...$inline(token.tokens, new Set([...formats, "bold"])));
        break;
      case "em":
        nodes.push(...$inline(token.tokens, new Set([...formats, "italic"])));
        break;
      case "del":
        nodes.push(...$inline(token.tokens, new Set([...formats, "strikethrough"])));
        break;
      case "codespan":
        nodes.push(...$text(decodeEntities(token.text), new Set([...formats, "code"])));
        break;
      case "br":
        nodes.push($createLineBreakNode());
        break;
      case "link": {
        const children = $inline(token.tokens, formats);
        const link = safeLink(token.href);
        if (!link) {
          nodes.push(...children); // javascript:, data:… keep the words only
          break;
        }
        const node = $createLinkNode(link.href, { title: token.title || null });
        node.append(...children);
        nodes.push(node);
        break;
      }
      case "image":
        // Markdown images point at files outside the media library: their alt text stays as words.
        if (token.text) nodes.push(...$text(decodeEntities(token.text), formats));
        break;
      case "html":
        // Inline tags (<b>, </b>) carry no words; anything else keeps its text only.
        nodes.push(...$text(wordsOfHtml(token.text), formats));
        break;
      default:
        if ("text" in token && typeof token.text === "string") nodes.push(...$text(decodeEntities(token.text), formats));
    }
  }
  return nodes;
}

/** Spaces left at a block's edges by what was dropped (an inline tag, an outside image) go too. */
function $trimEdges(nodes: LexicalNode[]): LexicalNode[] {
  const first = nodes[0];
  if ($isTextNode(first)) first.setTextContent(first.getTextContent().replace(/^\s+/, ""));
  const last = nodes[nodes.length - 1];
  if ($isTextNode(last)) last.setTextContent(last.getTextContent().replace(/\s+$/, ""));
  return nodes.filter((node) => !$isTextNode(node) || node.getTextContent() !== "");
}

function $paragraph(children: LexicalNode[]): ElementNode | null {
  const trimmed = $trimEdges(children);
  if (trimmed.length === 0) return null;
  const paragraph = $createParagraphNode();
  paragraph.append(...trimmed);
  return paragraph;
}

function $list(token: Tokens.List): ListNode {
  const list = $createListNode(token.ordered ? "number" : "bullet", token.ordered && typeof token.start === "number" ? token.start : 1);
  for (const item of token.items) {
    const listItem = $createListItemNode();
    const nested: ListNode[] = [];
    for (const child of item.tokens) {
      if (child.type === "list") {
        nested.push($list(child as Tokens.List));
        continue;
      }
      const inline = child.type === "text" || child.type === "paragraph" ? $inline("tokens" in child ? child.tokens : undefined, new Set()) : $blockWords(child);
      if (inline.length === 0) continue;
      if (listItem.getChildrenSize() > 0) listItem.append($createLineBreakNode());
      listItem.append(...$trimEdges(inline));
    }
    list.append(listItem);
    // Lexical nests a list in an item of its own, right after the item it belongs to.
    for (const inner of nested) {
      const holder = $createListItemNode();
      holder.append(inner);
      list.append(holder);
    }
  }
  return list;
}

/** Blocks that have no node of their own (code blocks, HTML) inside a list item or quote: their words. */
function $blockWords(token: Token): LexicalNode[] {
  if (token.type === "code") return $text(token.text, new Set(["code"]));
  if (token.type === "html") return $text(wordsOfHtml(token.text).trim(), new Set());
  if ("tokens" in token && token.tokens) return $inline(token.tokens, new Set());
  return "text" in token && typeof token.text === "string" ? $text(decodeEntities(token.text), new Set()) : [];
}

function $blocks(tokens: Token[]): LexicalNode[] {
  const nodes: LexicalNode[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "hr":
      case "def":
        break;
      case "heading": {
        // The page title is the only h1: # and ## are h2, deeper headings stop at h4.
        const tag = `h${Math.min(Math.max(token.depth, 2), 4)}` as HeadingTagType;
        const heading = $createHeadingNode(tag);
        heading.append(...$trimEdges($inline(token.tokens, new Set())));
        if (heading.getChildrenSize() > 0) nodes.push(heading);
        break;
      }
      case "paragraph":
      case "text": {
        const paragraph = $paragraph($inline(token.tokens, new Set()));
        if (paragraph) nodes.push(paragraph);
        break;
      }
      case "blockquote": {
        const quote = $createQuoteNode();
        for (const child of token.tokens ?? []) {
          const words = child.type === "paragraph" ? $inline(child.tokens, new Set()) : $blockWords(child);
          if (words.length === 0) continue;
          if (quote.getChildrenSize() > 0) quote.append($createLineBreakNode(), $createLineBreakNode());
          quote.append(...words);
        }
        if (quote.getChildrenSize() > 0) nodes.push(quote);
        break;
      }
      case "list":
        nodes.push($list(token as Tokens.List));
        break;
      case "table": {
        const table = token as Tokens.Table;
        const node = $createTableNode();
        const row = (cells: Tokens.TableCell[], header: boolean) => {
          const rowNode = $createTableRowNode();
          for (const cell of cells) {
            const cellNode = $createTableCellNode(header ? TableCellHeaderStates.ROW : TableCellHeaderStates.NO_STATUS);
            const paragraph = $createParagraphNode();
            paragraph.append(...$inline(cell.tokens, new Set()));
            cellNode.append(paragraph);
            rowNode.append(cellNode);
          }
          node.append(rowNode);
        };
        row(table.header, true);
        for (const cells of table.rows) row(cells, false);
        nodes.push(node);
        break;
      }
      case "code": {
        const paragraph = $paragraph($text(token.text, new Set(["code"])));
        if (paragraph) nodes.push(paragraph);
        break;
      }
      case "html": {
        const words = wordsOfHtml(token.text).trim();
        for (const part of words.split(/\n\s*\n/)) {
          const paragraph = $paragraph($text(part.trim(), new Set()));
          if (paragraph) nodes.push(paragraph);
        }
        break;
      }
      default: {
        const words = $blockWords(token);
        const paragraph = $paragraph(words);
        if (paragraph) nodes.push(paragraph);
      }
    }
  }
  return nodes;
}

/** A Markdown text (the legal pages as they were stored) as a rich text document. */
export function markdownToRichText(markdown: string): RichTextDocument {
  const tokens = marked.lexer(markdown, { gfm: true });
  return buildDocument(() => $appendBlocks($blocks(tokens)));
}

// ---------------------------------------------------------------- HTML

/**
 * HTML (a paste, or a record written through the API as HTML) as a rich text document. It goes
 * through the same cleaner as a paste in the editor, then Lexical's own HTML import.
 */
export async function htmlToRichText(html: string): Promise<RichTextDocument> {
  // jsdom is loaded on first use: most requests never import HTML, and its start-up is not free.
  const { JSDOM } = await import("jsdom");
  const { window } = new JSDOM("");
  try {
    const clean = cleanPastedHtml(html, new window.DOMParser());
    const document = new window.DOMParser().parseFromString(clean, "text/html");
    return buildDocument((editor) => {
      const nodes = $generateNodesFromDOM(editor, document);
      $appendBlocks(nodes);
    });
  } finally {
    window.close();
  }
}
