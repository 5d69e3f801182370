import sharp from "sharp";

// Thumbnails for the files API (docs/decisions/0016), in PocketBase's size syntax
// (tools/filesystem CreateThumb): `WxH` crop from the centre, `WxHt` from the top, `WxHb` from the
// bottom, `WxHf` fit inside without cropping, `0xH` / `Wx0` keep the aspect ratio. Only sizes a file
// field lists are made (the caller checks), so their number is bounded; each is made once at a
// time (concurrent requests for the same one share the work), at most two at once in the process,
// and kept in a small in-memory cache bounded in bytes. Output is WebP.

export interface ThumbSize {
  width: number;
  height: number;
  mode: "center" | "top" | "bottom" | "fit";
}

const THUMB = /^(\d{1,4})x(\d{1,4})([tbf])?$/;
const MAX_SIDE = 4096;
const MAX_INPUT_PIXELS = 50_000_000;
const CACHE_BYTES = 16 * 1024 * 1024;
const MAX_RUNNING = 2;

/** A thumb size in PocketBase's syntax, or null when it is not one (both sides 0, or too large). */
export function parseThumbSize(value: string): ThumbSize | null {
  const match = THUMB.exec(value);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if ((width === 0 && height === 0) || width > MAX_SIDE || height > MAX_SIDE) return null;
  const mode = match[3] === "t" ? "top" : match[3] === "b" ? "bottom" : match[3] === "f" ? "fit" : "center";
  return { width, height, mode };
}

/** Resizes an image as PocketBase would for `size`, as WebP. */
export async function renderThumb(source: Buffer, size: ThumbSize): Promise<Buffer> {
  const image = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).rotate();
  if (size.width === 0 || size.height === 0) {
    image.resize({ width: size.width || undefined, height: size.height || undefined });
  } else if (size.mode === "fit") {
    image.resize({ width: size.width, height: size.height, fit: "inside", withoutEnlargement: true });
  } else {
    image.resize({ width: size.width, height: size.height, fit: "cover", position: size.mode === "top" ? "top" : size.mode === "bottom" ? "bottom" : "centre" });
  }
  return image.webp({ quality: 80 }).toBuffer();
}

// ——— bounded cache and concurrency ———

const cache = new Map<string, Buffer>();
let cachedBytes = 0;
const pending = new Map<string, Promise<Buffer>>();
let running = 0;
const waiting: (() => void)[] = [];

function remember(key: string, value: Buffer): void {
  if (value.length > CACHE_BYTES / 4) return;
  cache.set(key, value);
  cachedBytes += value.length;
  for (const [oldest, buffer] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= buffer.length;
  }
}

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/**
 * The thumb of the file `key` at `size` (its spelling, e.g. "100x100t", part of the cache key):
 * from the cache, from a request already making it, or made now from `load()`'s bytes.
 */
export function cachedThumb(key: string, spelling: string, load: () => Promise<Buffer>): Promise<Buffer> {
  const size = parseThumbSize(spelling);
  if (!size) return Promise.reject(new Error(`not a thumb size: ${spelling}`));
  const cacheKey = `${key}\n${spelling}`;
  const hit = cache.get(cacheKey);
  if (hit) {
    // Most recently used last: Map keeps insertion order.
    cache.delete(cacheKey);
    cache.set(cacheKey, hit);
    return Promise.resolve(hit);
  }
  let work = pending.get(cacheKey);
  if (!work) {
    work = withSlot(async () => renderThumb(await load(), size))
      .then((thumb) => {
        remember(cacheKey, thumb);
        return thumb;
      })
      .finally(() => pending.delete(cacheKey));
    pending.set(cacheKey, work);
  }
  return work;
}
