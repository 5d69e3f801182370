import { safeLink } from "./links";

// Pasted HTML (Word, Google Docs, web pages) rebuilt from an allow-list before Lexical reads it:
// headings, paragraphs, lists, bold, italic, underline, links and tables survive; styles, classes,
// spans, fonts, comments, Office markup and everything executable do not. Formatting that Word and
// Google Docs write as inline styles (font-weight:700, font-style:italic) becomes <strong>/<em>;
// Word's paragraph lists (class=MsoListParagraph, mso-list:l0 level2) become real nested lists.
// Used by the editor's paste handler and by the server's HTML import (docs/decisions/0039).

export interface HtmlParser {
  parseFromString(html: string, type: "text/html"): Document;
}

const ELEMENT = 1;
const TEXT = 3;

/** Dropped with everything inside them. */
const DROP = new Set([
  "script", "style", "head", "title", "meta", "link", "base", "template", "iframe", "frame", "frameset", "object", "embed", "applet",
  "svg", "math", "noscript", "canvas", "video", "audio", "source", "track", "picture", "map", "area", "button", "input", "select",
  "option", "textarea", "xml", "o:p", "v:shape", "v:imagedata", "colgroup", "col", "caption", "hr", "wbr",
]);
const BLOCK = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "pre"]);
const HEADING: Record<string, string> = { h1: "h2", h2: "h2", h3: "h3", h4: "h4", h5: "h4", h6: "h4" };

interface Format {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  code: boolean;
  link: boolean;
}

function styleOf(element: Element): Map<string, string> {
  const declarations = new Map<string, string>();
  for (const part of (element.getAttribute("style") ?? "").split(";")) {
    const colon = part.indexOf(":");
    if (colon > 0) declarations.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim().toLowerCase());
  }
  return declarations;
}

function weightIsBold(weight: string | undefined): boolean | undefined {
  if (weight === undefined) return undefined;
  if (weight === "bold" || weight === "bolder") return true;
  if (weight === "normal" || weight === "lighter") return false;
  const number = Number.parseInt(weight, 10);
  return Number.isFinite(number) ? number >= 600 : undefined;
}

function formatOf(element: Element, tag: string, parent: Format): Format {
  const style = styleOf(element);
  const format = { ...parent };
  if (tag === "b" || tag === "strong") format.bold = true;
  if (tag === "i" || tag === "em" || tag === "cite" || tag === "dfn") format.italic = true;
  if (tag === "u" || tag === "ins") format.underline = true;
  if (tag === "s" || tag === "strike" || tag === "del") format.strike = true;
  if (tag === "code" || tag === "kbd" || tag === "samp" || tag === "tt") format.code = true;
  if (tag === "a") format.link = true;
  // Inline styles win over the tag: Google Docs wraps the whole paste in <b style="font-weight:normal">.
  const bold = weightIsBold(style.get("font-weight"));
  if (bold !== undefined) format.bold = bold;
  const fontStyle = style.get("font-style");
  if (fontStyle === "italic" || fontStyle === "oblique") format.italic = true;
  else if (fontStyle === "normal") format.italic = false;
  const decoration = style.get("text-decoration") ?? style.get("text-decoration-line");
  if (decoration !== undefined) {
    format.underline = decoration.includes("underline");
    format.strike = decoration.includes("line-through");
  }
  return format;
}

/** Word's list marker: "l0 level2" → list l0, level 2. */
function wordListOf(element: Element): { list: string; level: number } | null {
  const match = /(l\d+)\s+level(\d+)/.exec(styleOf(element).get("mso-list") ?? "");
  return match ? { list: match[1], level: Math.min(Number(match[2]), 9) } : null;
}

/** Which Word list levels are bulleted, from the @list rules of the pasted <style>. */
function wordListBullets(document: Document): Map<string, boolean> {
  const levels = new Map<string, boolean>();
  for (const style of Array.from(document.querySelectorAll("style"))) {
    for (const match of (style.textContent ?? "").matchAll(/@list\s+(l\d+):level(\d+)\s*\{([^}]*)\}/g)) {
      levels.set(`${match[1]}:${match[2]}`, /mso-level-number-format:\s*bullet/i.test(match[3]));
    }
  }
  return levels;
}

function isIgnorable(node: Node): boolean {
  return node.nodeType !== ELEMENT && (node.nodeType !== TEXT || (node.textContent ?? "").trim() === "");
}

/**
 * Turns each run of Word list paragraphs into <ul>/<ol> with nested levels, and removes Word's
 * typed markers ("·", "1.") that sit in <span style="mso-list:Ignore">.
 */
function convertWordLists(document: Document): void {
  const bullets = wordListBullets(document);
  const paragraphs = Array.from(document.body.querySelectorAll("p, h1, h2, h3, h4, h5, h6")).filter((p) => wordListOf(p) !== null);
  const done = new Set<Element>();
  for (const first of paragraphs) {
    if (done.has(first)) continue;
    const run: Element[] = [first];
    let next = first.nextSibling;
    while (next) {
      if (isIgnorable(next)) {
        next = next.nextSibling;
        continue;
      }
      if (next.nodeType === ELEMENT && wordListOf(next as Element)) {
        run.push(next as Element);
        next = next.nextSibling;
        continue;
      }
      break;
    }
    const stack: { level: number; list: Element }[] = [];
    let lastItem: Element | null = null;
    const rootParent = first.parentNode!;
    const anchor = document.createElement("div");
    rootParent.insertBefore(anchor, first);
    for (const paragraph of run) {
      done.add(paragraph);
      const { list, level } = wordListOf(paragraph)!;
      const markers = Array.from(paragraph.querySelectorAll("span")).filter((span) => /mso-list:\s*ignore/i.test(span.getAttribute("style") ?? ""));
      const marker = markers.map((span) => span.textContent ?? "").join("").replace(/\u00a0/g, " ").trim();
      for (const span of markers) span.remove();
      const bulleted = bullets.get(`${list}:${level}`) ?? !/^[0-9a-z]{1,4}[.)]/i.test(marker);
      while (stack.length > 0 && (stack[stack.length - 1].level > level || (stack[stack.length - 1].level === level && stack[stack.length - 1].list.localName !== (bulleted ? "ul" : "ol")))) stack.pop();
      if (stack.length === 0 || stack[stack.length - 1].level < level) {
        const listElement = document.createElement(bulleted ? "ul" : "ol");
        if (stack.length === 0 || !lastItem) anchor.appendChild(listElement);
        else lastItem.appendChild(listElement);
        stack.push({ level, list: listElement });
      }
      const item = document.createElement("li");
      while (paragraph.firstChild) item.appendChild(paragraph.firstChild);
      stack[stack.length - 1].list.appendChild(item);
      lastItem = item;
      paragraph.remove();
    }
    while (anchor.firstChild) rootParent.insertBefore(anchor.firstChild, anchor);
    anchor.remove();
  }
}

class Rebuilder {
  constructor(private readonly document: Document) {}

  /** Copies the allowed part of `source`'s children into `target`. */
  children(source: Node, target: Element, format: Format): void {
    for (const child of Array.from(source.childNodes)) this.node(child, target, format);
  }

  text(text: string, target: Element, format: Format): void {
    // Source line wraps (Word breaks lines at 80 columns) are spaces, as in the browser.
    const collapsed = text.replace(/[\r\n\t ]+/g, " ");
    if (collapsed === "") return;
    let node: Node = this.document.createTextNode(collapsed);
    const wrap = (tag: string) => {
      const element = this.document.createElement(tag);
      element.appendChild(node);
      node = element;
    };
    if (collapsed.trim() !== "") {
      if (format.code) wrap("code");
      if (format.strike) wrap("s");
      if (format.underline && !format.link) wrap("u");
      if (format.italic) wrap("em");
      if (format.bold) wrap("strong");
    }
    target.appendChild(node);
  }

  node(source: Node, target: Element, format: Format): void {
    if (source.nodeType === TEXT) {
      this.text(source.textContent ?? "", target, format);
      return;
    }
    if (source.nodeType !== ELEMENT) return; // comments, Word's conditional blocks, processing instructions
    const element = source as Element;
    const tag = element.localName.toLowerCase();
    if (DROP.has(tag) || /^[ov]:/.test(tag)) return; // Office's o:p and VML shapes carry layout, not words
    if (tag.includes(":")) {
      // Other namespaced elements (Word's smart tags st1:*, content controls w:*) keep their words.
      this.children(element, target, format);
      return;
    }
    const own = formatOf(element, tag, format);
    const create = (name: string) => this.document.createElement(name);

    if (tag in HEADING || tag === "p" || tag === "blockquote" || tag === "pre") {
      const className = element.getAttribute("class") ?? "";
      let name = tag in HEADING ? HEADING[tag] : tag === "pre" ? "p" : tag;
      if (/\bMsoTitle\b/.test(className)) name = "h2";
      else if (/\bMsoSubtitle\b/.test(className)) name = "h3";
      if (target.localName === "li" || target.localName === "td" || target.localName === "th" || target.localName === "p" || /^h\d$/.test(target.localName)) {
        // Google Docs puts <p role="presentation"> in every list item: its words join the item.
        if (target.childNodes.length > 0) target.appendChild(create("br"));
        this.children(element, target, own);
        return;
      }
      const block = create(name);
      this.children(element, block, tag === "pre" ? { ...own, code: true } : own);
      target.appendChild(block);
      return;
    }
    if (tag === "ul" || tag === "ol") {
      const list = create(tag);
      for (const child of Array.from(element.childNodes)) {
        if (child.nodeType === ELEMENT && ["ul", "ol"].includes((child as Element).localName)) {
          // Google Docs writes a nested list beside the items, not inside one: move it into the item before it.
          let item = list.lastElementChild;
          if (!item) {
            item = create("li");
            list.appendChild(item);
          }
          this.node(child, item, own);
        } else if (child.nodeType === ELEMENT && (child as Element).localName === "li") {
          const item = create("li");
          this.children(child, item, formatOf(child as Element, "li", own));
          list.appendChild(item);
        } else if (!isIgnorable(child)) {
          const item = create("li");
          this.node(child, item, own);
          list.appendChild(item);
        }
      }
      if (list.childNodes.length > 0) target.appendChild(list);
      return;
    }
    if (tag === "li") {
      // An item outside a list (a partial copy of one) joins a list of its own.
      let list = target;
      if (target.localName !== "ul" && target.localName !== "ol") {
        const previous = target.lastElementChild;
        list = previous?.localName === "ul" ? previous : create("ul");
        if (list !== previous) target.appendChild(list);
      }
      const item = create("li");
      this.children(element, item, own);
      list.appendChild(item);
      return;
    }
    if (tag === "table" || tag === "thead" || tag === "tbody" || tag === "tfoot" || tag === "tr") {
      const copy = create(tag === "tfoot" ? "tbody" : tag);
      for (const child of Array.from(element.childNodes)) {
        if (child.nodeType === ELEMENT) this.node(child, copy, own);
      }
      target.appendChild(copy);
      return;
    }
    if (tag === "td" || tag === "th") {
      const cell = create(tag);
      for (const attribute of ["colspan", "rowspan"]) {
        const value = Number.parseInt(element.getAttribute(attribute) ?? "", 10);
        if (Number.isInteger(value) && value > 1 && value < 100) cell.setAttribute(attribute, String(value));
      }
      this.children(element, cell, own);
      target.appendChild(cell);
      return;
    }
    if (tag === "a") {
      const link = safeLink(element.getAttribute("href"));
      if (!link || format.link) {
        // Anchors without a usable address (Word's bookmarks, javascript:) keep their words only.
        this.children(element, target, { ...own, link: format.link });
        return;
      }
      const anchor = create("a");
      anchor.setAttribute("href", link.href);
      this.children(element, anchor, own);
      if (anchor.childNodes.length > 0) target.appendChild(anchor);
      return;
    }
    if (tag === "br") {
      target.appendChild(create("br"));
      return;
    }
    if (tag === "img") {
      // Only images of the media library (data-media-id) come in; pasted pictures are not uploads.
      const mediaId = element.getAttribute("data-media-id");
      if (mediaId && /^[\w-]{1,64}$/.test(mediaId)) {
        const image = create("img");
        image.setAttribute("data-media-id", mediaId);
        image.setAttribute("alt", element.getAttribute("alt") ?? "");
        target.appendChild(image);
      }
      return;
    }
    // Every other element (span, font, div, section, b, i…) is unwrapped: its words keep the
    // formatting it meant.
    this.children(element, target, own);
  }
}

function isBlank(node: Node): boolean {
  if (node.nodeType === TEXT) return (node.textContent ?? "").replace(/\u00a0/g, " ").trim() === "";
  if (node.nodeType !== ELEMENT) return true;
  const element = node as Element;
  if (element.localName === "img") return false;
  if (element.localName === "br") return true;
  return Array.from(element.childNodes).every(isBlank);
}

/** Inline runs directly in the body become paragraphs; empty paragraphs and stray <br>s go. */
function tidy(body: Element, document: Document): void {
  let run: Node[] = [];
  const flush = (before: Node | null) => {
    if (run.length > 0 && !run.every(isBlank)) {
      const paragraph = document.createElement("p");
      body.insertBefore(paragraph, before);
      for (const node of run) paragraph.appendChild(node);
    } else {
      for (const node of run) node.parentNode?.removeChild(node);
    }
    run = [];
  };
  for (const child of Array.from(body.childNodes)) {
    if (child.nodeType === ELEMENT && BLOCK.has((child as Element).localName)) {
      flush(child);
      continue;
    }
    run.push(child);
  }
  flush(null);
  for (const block of Array.from(body.querySelectorAll("p, h2, h3, h4, blockquote"))) {
    if (isBlank(block)) block.remove();
  }
  for (const block of Array.from(body.querySelectorAll("p, h2, h3, h4, li, td, th"))) {
    // Leading and trailing spaces and line breaks of a block are noise from the source's layout.
    while (block.lastChild && (block.lastChild as Element).localName === "br") block.lastChild.remove();
    const first = block.firstChild;
    if (first?.nodeType === TEXT) first.textContent = (first.textContent ?? "").replace(/^[\s\u00a0]+/, "");
    const last = block.lastChild;
    if (last?.nodeType === TEXT) last.textContent = (last.textContent ?? "").replace(/[\s\u00a0]+$/, "");
  }
}

/** The clean HTML of a paste; `parser` defaults to the browser's DOMParser. */
export function cleanPastedHtml(html: string, parser: HtmlParser = new DOMParser()): string {
  const source = parser.parseFromString(html, "text/html");
  convertWordLists(source);
  const target = parser.parseFromString("<!doctype html><html><body></body></html>", "text/html");
  const rebuilder = new Rebuilder(target);
  rebuilder.children(source.body, target.body, { bold: false, italic: false, underline: false, strike: false, code: false, link: false });
  tidy(target.body, target);
  return target.body.innerHTML;
}
