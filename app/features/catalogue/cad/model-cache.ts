import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { PartSpec } from "./models";
import type { CadThreadResult, PartMeta } from "./protocol";

// The product model cache and fingerprints (docs/decisions/0025). No app imports: the build script
// (scripts/build-catalogue-cad.mjs) fills the same cache the model job reads.

/** Bump when the models, the drawing or the render change: every fingerprint changes with it. */
export const CAD_GENERATOR_VERSION = "2";

/** The fingerprint of a model: what it is built from and everything its drawing and image show. */
export function modelFingerprint(source: { spec: PartSpec } | { stepSha256: string }, meta: PartMeta): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ version: CAD_GENERATOR_VERSION, source, meta }));
  return hash.digest("hex").slice(0, 32);
}

/** Built models by fingerprint; not data (it can always be rebuilt), so not under DATA_DIR. */
export function cadCacheDir(): string {
  return path.resolve(process.env.CAD_CACHE_DIR ?? "node_modules/.cache/forja-cad");
}

export interface CachedModel {
  step: Buffer;
  stl: Buffer;
  drawing: string;
  /** The rendered image as PNG. */
  image: Buffer;
  imageWidth: number;
  volumeMm3: number;
  areaMm2: number;
  size: { x: number; y: number; z: number };
}

const CACHE_FILES = ["modelo.step", "modelo.stl", "dibujo.svg", "imagen.png", "cifras.json"] as const;

export async function readCache(fingerprint: string): Promise<CachedModel | null> {
  const dir = path.join(cadCacheDir(), fingerprint);
  try {
    const [step, stl, drawing, image, figures] = await Promise.all(CACHE_FILES.map((name) => fs.promises.readFile(path.join(dir, name))));
    const parsed = JSON.parse(figures!.toString("utf8")) as Pick<CachedModel, "imageWidth" | "volumeMm3" | "areaMm2" | "size">;
    return { step: step!, stl: stl!, drawing: drawing!.toString("utf8"), image: image!, ...parsed };
  } catch {
    return null;
  }
}

/** Writes a built model into the cache (a temporary directory renamed into place: readers never see half of one). */
export async function writeCache(fingerprint: string, model: CachedModel): Promise<void> {
  const root = cadCacheDir();
  const dir = path.join(root, fingerprint);
  const tmp = path.join(root, `.tmp-${fingerprint}-${process.pid}-${Date.now()}`);
  try {
    await fs.promises.mkdir(tmp, { recursive: true });
    const figures = JSON.stringify({ imageWidth: model.imageWidth, volumeMm3: model.volumeMm3, areaMm2: model.areaMm2, size: model.size });
    const contents = [model.step, model.stl, model.drawing, model.image, figures];
    await Promise.all(CACHE_FILES.map((name, index) => fs.promises.writeFile(path.join(tmp, name), contents[index]!)));
    await fs.promises.rename(tmp, dir);
  } catch (error) {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    // Another process cached it first, or the cache is read-only: the model is stored all the same.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
}

/** A built model (the thread's answer, or artefacts built in this process) as the cache keeps it. */
export async function fromThreadResult(result: Pick<CadThreadResult, "drawing" | "volumeMm3" | "areaMm2" | "size"> & { step: ArrayBuffer | Uint8Array; stl: ArrayBuffer | Uint8Array; image: { data: ArrayBuffer | Uint8ClampedArray; width: number; height: number } }): Promise<CachedModel> {
  const pixels = result.image.data instanceof ArrayBuffer ? Buffer.from(result.image.data) : Buffer.from(result.image.data.buffer, result.image.data.byteOffset, result.image.data.byteLength);
  const image = await sharp(pixels, { raw: { width: result.image.width, height: result.image.height, channels: 4 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return {
    step: Buffer.from(new Uint8Array(result.step)),
    stl: Buffer.from(new Uint8Array(result.stl)),
    drawing: result.drawing,
    image,
    imageWidth: result.image.width,
    volumeMm3: result.volumeMm3,
    areaMm2: result.areaMm2,
    size: result.size,
  };
}

