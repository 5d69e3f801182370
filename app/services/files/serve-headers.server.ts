import { clipFileName, visibleFileName } from "~/lib/format";
import { MIME_BY_KIND } from "./detect-type.server";

// The one set of headers every stored file is served with (docs/decisions/0036): request
// attachments, the record API's /api/files, product photos and CAD downloads. A stored file can
// never render as a page of the site, whatever bytes it carries (an HTML polyglot behind a STEP
// header, PNG magic or %PDF):
// - Content-Type is the type detected from its content at upload, from a fixed list, else
//   application/octet-stream — never text/html, never SVG or anything else a browser runs;
// - X-Content-Type-Options: nosniff, so the browser keeps that type;
// - Content-Disposition: attachment, except raster images asked for inline (a product photo);
// - Content-Security-Policy: sandbox; default-src 'none' — opened anyway, it is an opaque origin
//   that runs nothing, loads nothing and reaches no cookie.

export const FILE_RESPONSE_CSP = "sandbox; default-src 'none'";

/** Types a browser only ever draws as a picture: the only ones that may be served inline. */
const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/avif"]);

/** Every type our content detection gives, plus the images we make ourselves (WebP, AVIF). */
const SERVABLE_TYPES = new Set<string>([...Object.values(MIME_BY_KIND), "image/webp", "image/avif", "application/pdf", "application/octet-stream"]);

/** The type to send: a detected one from the list, else application/octet-stream (no parameters, lower case). */
export function servedContentType(detected: string | null | undefined): string {
  const type = (detected ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "image/jpg") return "image/jpeg";
  return SERVABLE_TYPES.has(type) ? type : "application/octet-stream";
}

/** A stored name as a download name: visible characters only, no path (separators become "_"), at most 200 characters. */
export function downloadFileName(name: string): string {
  const flat = visibleFileName(name.normalize("NFC"))
    .replace(/[/\\]/g, "_")
    .replace(/^[.\s]+/, "");
  return clipFileName(flat, 200) || "archivo";
}

/**
 * RFC 6266 with RFC 5987: a plain-ASCII `filename` for old clients (accents dropped, anything
 * else "_") and the exact UTF-8 name in `filename*`.
 */
export function contentDisposition(name: string, disposition: "attachment" | "inline" = "attachment"): string {
  const clean = downloadFileName(name);
  const fallback = clean
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\%;]/g, "_");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export interface StoredFileResponse {
  /** The content type detected at upload (or made by us). */
  type: string | null | undefined;
  /** The name it downloads as. */
  name: string;
  size?: number;
  /** Shown in the page when it is a raster image (a product photo); anything else downloads regardless. */
  inline?: boolean;
  /**
   * An SVG Forja drew itself from its own data (a catalogue drawing), never an upload: it keeps
   * image/svg+xml so an <img> shows it (with its inline styles); opened on its own it still
   * downloads, sandboxed.
   */
  ownSvg?: boolean;
  /** Cache-Control; private, no-store unless the caller knows the file is public. */
  cacheControl?: string;
  lastModified?: Date;
}

/** The headers of a stored file's response. */
export function storedFileHeaders(file: StoredFileResponse): Headers {
  const type = file.ownSvg ? "image/svg+xml" : servedContentType(file.type);
  const inline = file.inline === true && INLINE_IMAGE_TYPES.has(type);
  const headers = new Headers({
    "Content-Type": type,
    "Content-Disposition": contentDisposition(file.name, inline ? "inline" : "attachment"),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": file.ownSvg ? `${FILE_RESPONSE_CSP}; style-src 'unsafe-inline'` : FILE_RESPONSE_CSP,
    "Cache-Control": file.cacheControl ?? "private, no-store",
  });
  if (file.size !== undefined) headers.set("Content-Length", String(file.size));
  if (file.lastModified) headers.set("Last-Modified", file.lastModified.toUTCString());
  return headers;
}
