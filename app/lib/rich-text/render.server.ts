import sanitizeHtml from "sanitize-html";
import { RICH_TEXT_LIMITS, type RichTextDocument, type RichTextNode, validateRichText } from "./document";
import { safeLink } from "./links";

// Stored rich text (Lexical's JSON) to HTML on the server, without a DOM: every node kind is
// written here with its text escaped, and the result goes through sanitize-html with an
// allow-list as a second belt (docs/decisions/0039).

/** What the media library answers for an image node; null when the image no longer exists. */
export interface RichTextImageSource {
  src: string;
  width: number;
  height: number;
  srcset?: string;
  sizes?: string;
  /** Other formats offered first (AVIF), each a `<source>` of a `<picture>` around the `<img>`. */
  sources?: readonly { type: `image/${string}`; srcset: string }[];
}

export interface RenderRichTextOptions {
  /** Resolves an image node's media id. Without it, images are left out. */
  resolveImage?: (mediaId: string) => RichTextImageSource | null | undefined;
  /** Rewrites each text before it is escaped: the site's business facts named in the text ("{correo}"). */
  resolveText?: (text: string) => string;
}

// Lexical's text format bits.
const FORMAT = { bold: 1, italic: 2, strikethrough: 4, underline: 8, code: 16, subscript: 32, superscript: 64 } as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function childrenOf(node: RichTextNode): RichTextNode[] {
  return Array.isArray(node.children) ? node.children : [];
}

function textOf(node: RichTextNode, depth = 0): string {
  if (typeof node !== "object" || node === null || depth > RICH_TEXT_LIMITS.depth * 2) return "";
  if (typeof node.text === "string") return node.text;
  return childrenOf(node)
    .map((child) => textOf(child, depth + 1))
    .join("");
}

function renderText(node: RichTextNode, resolveText: ((text: string) => string) | undefined): string {
  const stored = typeof node.text === "string" ? node.text : "";
  const text = resolveText ? resolveText(stored) : stored;
  if (text === "") return "";
  let html = escapeHtml(text).replace(/\r?\n/g, "<br>");
  const format = typeof node.format === "number" ? node.format : 0;
  // Innermost first, so bold italic is <strong><em>…</em></strong>.
  if (format & FORMAT.code) html = `<code>${html}</code>`;
  if (format & FORMAT.subscript) html = `<sub>${html}</sub>`;
  if (format & FORMAT.superscript) html = `<sup>${html}</sup>`;
  if (format & FORMAT.strikethrough) html = `<s>${html}</s>`;
  if (format & FORMAT.underline) html = `<u>${html}</u>`;
  if (format & FORMAT.italic) html = `<em>${html}</em>`;
  if (format & FORMAT.bold) html = `<strong>${html}</strong>`;
  return html;
}

function headingTag(tag: unknown): "h2" | "h3" | "h4" {
  // The page title is the only h1; headings below h4 keep their text at h4.
  if (tag === "h3" || tag === "h4") return tag;
  if (tag === "h5" || tag === "h6") return "h4";
  return "h2";
}

function positiveInteger(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value < 1000 ? value : null;
}

/** A list item holding only a nested list: Lexical's way of nesting. */
function isNestingItem(item: RichTextNode): boolean {
  const children = childrenOf(item);
  return item.type === "listitem" && children.length > 0 && children.every((child) => child.type === "list");
}

class Renderer {
  private depth = 0;

  constructor(private readonly options: RenderRichTextOptions) {}

  children(node: RichTextNode): string {
    return childrenOf(node)
      .map((child) => this.node(child))
      .join("");
  }

  node(node: RichTextNode): string {
    // Stored documents are validated, but the renderer never trusts that: deeper trees are cut.
    if (this.depth >= RICH_TEXT_LIMITS.depth * 2 || typeof node !== "object" || node === null) return "";
    this.depth += 1;
    try {
      return this.kind(node);
    } finally {
      this.depth -= 1;
    }
  }

  kind(node: RichTextNode): string {
    switch (node.type) {
      case "root":
        return this.children(node);
      case "text":
        return renderText(node, this.options.resolveText);
      case "tab":
        return " ";
      case "linebreak":
        return "<br>";
      case "paragraph": {
        const inner = this.children(node);
        return inner === "" ? "" : `<p>${inner}</p>`;
      }
      case "heading": {
        const tag = headingTag(node.tag);
        const inner = this.children(node);
        return inner === "" ? "" : `<${tag}>${inner}</${tag}>`;
      }
      case "quote": {
        const inner = this.children(node);
        return inner === "" ? "" : `<blockquote>${inner}</blockquote>`;
      }
      case "list":
        return this.list(node);
      case "listitem":
        // A list item outside a list is read as a paragraph.
        return `<p>${this.children(node)}</p>`;
      case "link":
      case "autolink":
        return this.link(node);
      case "table":
        return this.table(node);
      case "image":
        return this.image(node);
      default:
        // Unknown kinds (a node this renderer does not know yet): their words only.
        return escapeHtml(textOf(node));
    }
  }

  list(node: RichTextNode): string {
    const ordered = node.listType === "number";
    const tag = ordered ? "ol" : "ul";
    const start = ordered ? positiveInteger(node.start) : null;
    const items: string[] = [];
    for (const item of childrenOf(node)) {
      if (isNestingItem(item) && items.length > 0) {
        // Nested lists belong inside the item before them: <li>a<ul><li>b</li></ul></li>.
        const nested = childrenOf(item)
          .map((child) => this.node(child))
          .join("");
        items[items.length - 1] = items[items.length - 1].replace(/<\/li>$/, `${nested}</li>`);
        continue;
      }
      const inner = item.type === "listitem" ? this.children(item) : this.node(item);
      items.push(`<li>${inner}</li>`);
    }
    if (items.length === 0) return "";
    return `<${tag}${start && start !== 1 ? ` start="${start}"` : ""}>${items.join("")}</${tag}>`;
  }

  link(node: RichTextNode): string {
    const inner = this.children(node);
    const link = safeLink(node.url);
    if (!link) return inner;
    const title = typeof node.title === "string" && node.title.trim() !== "" ? ` title="${escapeHtml(node.title)}"` : "";
    const external = link.external ? ` rel="noopener noreferrer" target="_blank"` : "";
    return `<a href="${escapeHtml(link.href)}"${title}${external}>${inner}</a>`;
  }

  cell(cell: RichTextNode, header: boolean): string {
    const tag = header ? "th" : "td";
    const colspan = positiveInteger(cell.colSpan);
    const rowspan = positiveInteger(cell.rowSpan);
    const span = `${colspan && colspan > 1 ? ` colspan="${colspan}"` : ""}${rowspan && rowspan > 1 ? ` rowspan="${rowspan}"` : ""}`;
    const children = childrenOf(cell);
    // A cell with one paragraph (the usual case) holds its words directly.
    const inner = children.length === 1 && children[0].type === "paragraph" ? this.children(children[0]) : this.children(cell);
    return `<${tag}${span}>${inner}</${tag}>`;
  }

  table(node: RichTextNode): string {
    const rows = childrenOf(node).filter((row) => row.type === "tablerow");
    if (rows.length === 0) return "";
    const isHeader = (cell: RichTextNode) => typeof cell.headerState === "number" && cell.headerState !== 0;
    const row = (cells: RichTextNode[]) => `<tr>${cells.map((cell) => this.cell(cell, isHeader(cell))).join("")}</tr>`;
    const first = childrenOf(rows[0]);
    // A first row of header cells is the table's head (Lexical marks it with the row bit, 1).
    const headRow = first.length > 0 && first.every((cell) => typeof cell.headerState === "number" && (cell.headerState & 1) === 1);
    const head = headRow ? `<thead>${row(first)}</thead>` : "";
    const body = (headRow ? rows.slice(1) : rows).map((r) => row(childrenOf(r)));
    return `<table>${head}${body.length > 0 ? `<tbody>${body.join("")}</tbody>` : ""}</table>`;
  }

  image(node: RichTextNode): string {
    if (typeof node.mediaId !== "string" || node.mediaId === "" || !this.options.resolveImage) return "";
    const source = this.options.resolveImage(node.mediaId);
    const src = source ? safeLink(source.src) : null;
    if (!source || !src || /^(mailto|tel):/i.test(src.href)) return "";
    const alt = typeof node.alt === "string" ? node.alt : "";
    const width = positiveIntegerSize(source.width);
    const height = positiveIntegerSize(source.height);
    const srcset = source.srcset && safeSrcset(source.srcset) ? ` srcset="${escapeHtml(source.srcset)}"` : "";
    const sizes = source.sizes ? ` sizes="${escapeHtml(source.sizes)}"` : "";
    const img = `<img src="${escapeHtml(src.href)}"${srcset}${sizes} alt="${escapeHtml(alt)}"${width ? ` width="${width}"` : ""}${height ? ` height="${height}"` : ""} loading="lazy" decoding="async">`;
    const sources = (source.sources ?? [])
      .filter((candidate) => /^image\/[a-z0-9.+-]+$/.test(candidate.type) && safeSrcset(candidate.srcset))
      .map((candidate) => `<source type="${candidate.type}" srcset="${escapeHtml(candidate.srcset)}"${sizes}>`);
    return sources.length ? `<picture>${sources.join("")}${img}</picture>` : img;
  }
}

/** A srcset whose every address is an image address the page may load (http(s) or a site path). */
function safeSrcset(value: string): boolean {
  const candidates = value.split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? "");
  return candidates.length > 0 && candidates.every((url) => {
    const link = url ? safeLink(url) : null;
    return link !== null && !/^(mailto|tel):/i.test(link.href);
  });
}

function positiveIntegerSize(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= 20_000 ? value : null;
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: ["h2", "h3", "h4", "p", "br", "blockquote", "ul", "ol", "li", "strong", "em", "u", "s", "code", "sub", "sup", "a", "table", "thead", "tbody", "tr", "th", "td", "picture", "source", "img"],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    ol: ["start"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
    source: ["type", "srcset", "sizes"],
    img: ["src", "srcset", "sizes", "alt", "width", "height", "loading", "decoding"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"], source: ["http", "https"] },
  selfClosing: [...sanitizeHtml.defaults.selfClosing, "source"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const link = safeLink(attribs.href);
      if (!link) return { tagName, attribs: {} };
      const { rel: _rel, target: _target, ...rest } = attribs;
      return { tagName, attribs: link.external ? { ...rest, href: link.href, rel: "noopener noreferrer", target: "_blank" } : { ...rest, href: link.href } };
    },
  },
};

/**
 * The HTML of a stored document, safe to put in a page as it is. Takes the document or its JSON
 * string; a string that is not a document renders nothing.
 */
export function renderRichText(value: RichTextDocument | string | null | undefined, options: RenderRichTextOptions = {}): string {
  let document = value;
  if (typeof document === "string") {
    const result = validateRichText(document);
    document = result.success ? result.data : null;
  }
  if (!document || typeof document !== "object" || !document.root) return "";
  const html = new Renderer(options).node(document.root);
  return sanitizeHtml(html, sanitizeOptions);
}
