// Which link targets long texts may carry. One rule for the renderer, the paste cleaner, the
// Markdown import and the editor's link field (docs/decisions/0039).

export interface SafeLink {
  href: string;
  /** Another site: opened in a new tab without an opener. */
  external: boolean;
}

// Control characters and whitespace inside a scheme ("java\tscript:") are how filters are fooled.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g;

/** The link as it may be written into the page, or null when it may not be a link at all. */
export function safeLink(raw: unknown): SafeLink | null {
  if (typeof raw !== "string") return null;
  const href = raw.replace(CONTROL, "").trim();
  if (href === "" || href.length > 2048) return null;
  if (href.startsWith("//")) return { href: `https:${href}`, external: true };
  if (/^[/#?]/.test(href)) return { href, external: false };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") {
    try {
      new URL(href);
    } catch {
      return null;
    }
    return { href, external: true };
  }
  if (scheme === "mailto" || scheme === "tel") return { href, external: false };
  // A bare "www.example.com" is a web address; anything else with a scheme (javascript:, data:,
  // vbscript:, file:) or that is not a URL is refused.
  if (!scheme && /^www\.[^\s/]+\.[a-z]{2,}/i.test(href)) return { href: `https://${href}`, external: true };
  return null;
}
