import { marked } from "marked";
import sanitizeHtml from "sanitize-html";

const allowedTags = ["h2", "h3", "h4", "p", "ul", "ol", "li", "strong", "em", "a", "blockquote", "code", "pre", "hr", "br", "table", "thead", "tbody", "tr", "th", "td"];

/** Markdown from the database to HTML that is safe to inject: no scripts, styles, handlers or foreign schemes. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return sanitizeHtml(html, {
    allowedTags,
    allowedAttributes: { a: ["href", "title", "rel", "target"] },
    allowedSchemes: ["http", "https", "mailto", "tel"],
    transformTags: {
      // Headings inside a page start at h2: the page title is its only h1.
      h1: "h2",
      a: (tagName, attribs) => {
        const external = /^(https?:)?\/\//i.test(attribs.href ?? "");
        return { tagName, attribs: external ? { ...attribs, rel: "noopener noreferrer", target: "_blank" } : attribs };
      },
    },
  });
}
