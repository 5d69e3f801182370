// What an uploaded file really is, by its first bytes (never by its name): the raster formats the
// library takes, or SVG. An SVG is only ever rasterized (docs/decisions/0046), and only when it
// carries nothing active or external: no script, no event handlers, no foreignObject, no
// references outside the file, no DTD.

export type MediaKind = "jpeg" | "png" | "gif" | "webp" | "avif" | "svg";

export const MIME_BY_MEDIA_KIND: Record<MediaKind, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The kind the bytes say, or null for anything else. */
export function detectMediaKind(head: Uint8Array): MediaKind | null {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (ascii(head, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return "gif";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "webp";
  if (ascii(head, 4, 8) === "ftyp") {
    const boxSize = Math.min(head.length, (head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!);
    const brands = ascii(head, 8, Math.max(12, boxSize));
    if (/avi[fs]/.test(brands)) return "avif";
    return null;
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(head.subarray(0, 4096)).replace(/^\uFEFF/, "");
  // A declaration, comments and a DTD may come first (a DTD is then refused by unsafeSvgReason).
  const start = text.replace(/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*/i, "");
  if (/^<svg[\s>]/i.test(start)) return "svg";
  return null;
}

/** Why an SVG is refused (Spanish, for the form), or null when it may be rasterized. */
export function unsafeSvgReason(svg: string): string | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(svg)) return "trae una declaración de documento (DOCTYPE)";
  if (/<script/i.test(svg)) return "trae código (script)";
  if (/<foreignObject/i.test(svg)) return "trae contenido HTML incrustado (foreignObject)";
  if (/\son[a-z]+\s*=/i.test(svg)) return "trae manejadores de eventos (atributos on…)";
  if (/javascript:/i.test(svg)) return "trae enlaces javascript:";
  for (const match of svg.matchAll(/(?:xlink:)?href\s*=\s*["']\s*([^"']*)["']/gi)) {
    const target = match[1]!;
    if (!target.startsWith("#") && !/^data:image\/(png|jpeg|gif|webp);/i.test(target)) return "hace referencia a archivos externos";
  }
  for (const match of svg.matchAll(/url\(\s*["']?\s*([^)"']*)/gi)) {
    if (!match[1]!.startsWith("#")) return "hace referencia a archivos externos";
  }
  if (/@import/i.test(svg)) return "hace referencia a archivos externos";
  return null;
}
