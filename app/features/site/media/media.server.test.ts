import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";

// The media library below HTTP: real PGlite, real sharp, real files in the file store under a
// temporary DATA_DIR, uploads as the multipart parser hands them over.

const dataDir = await vi.hoisted(async () => {
  // The site's pictures are rendered by the build (scripts/build-site-imagery.mjs); the seed finds them
  // when this file is loaded, so they must exist before the imports below (a clean clone has none).
  (await import("../../../../tests/support/test-server")).ensureBuilt();
  return (await import("../../../../tests/support/test-env")).isolateTestEnv("media-library");
});

// Content records that use an image are written straight into the store's table: the editor that
// makes them is another feature's screen.
import { getDb } from "~/db/client.server";
import { contentEntries, media } from "~/db/schema/content";
import { eq } from "drizzle-orm";
import { focalRegion } from "~/lib/media";
import { failureMessages } from "~/lib/result";
import { getFileStore } from "~/services/files/file-store.server";
import { removeOrphanUploads } from "~/services/files/orphans.server";
import type { UploadedFile } from "~/services/files/multipart.server";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { useTestFileDatabase } from "../../../../tests/support/test-file-database";
import { detectMediaKind, unsafeSvgReason } from "./image-kind.server";
import { getMediaFile } from "./media-file.server";
import { deleteMedia, getMedia, listMedia, mediaUsage, updateMediaDetails } from "./media-library.server";
import { seedSiteImagery, type SiteImageSource } from "./media-seed.server";
import { uploadMedia } from "./media-uploads.server";

useTestFileDatabase(dataDir);

function uploaded(name: string, bytes: Buffer): UploadedFile {
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.mkdirSync(path.dirname(tmpPath), { recursive: true });
  fs.writeFileSync(tmpPath, bytes);
  return { field: "archivo", name, tmpPath, size: bytes.length, sha256: "", head: bytes.subarray(0, 65_536), tail: bytes.subarray(Math.max(0, bytes.length - 65_536)) };
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#4a5a6c" } });
const details = { alt: "Brida de acero maquinada con seis barrenos", focoX: "0.5", focoY: "0.5" };

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getFileStore().keys()) keys.push(key);
  return keys.sort();
}

async function upload(name: string, bytes: Buffer, values: Record<string, string> = details): Promise<string> {
  const result = await uploadMedia(uploaded(name, bytes), values);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value.id;
}

async function row(id: string) {
  const [found] = await getDb().select().from(media).where(eq(media.id, id));
  return found!;
}

describe("type by content", () => {
  it("takes a PNG named .jpg as a PNG and refuses a text file named .png", async () => {
    const id = await upload("foto.jpg", await solid(500, 400).png().toBuffer());
    expect((await row(id)).mime).toBe("image/png");

    const text = await uploadMedia(uploaded("foto.png", Buffer.from("Esto no es una imagen, es texto.\n")), details);
    expect(text).toMatchObject({ ok: false, fieldErrors: { archivo: ["«foto.png» no es una imagen JPG, PNG, WebP, AVIF, GIF o SVG válida."] } });
    // A file that starts like a PNG but is not one is refused by the decoder.
    const fake = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(200, 7)]);
    expect((await uploadMedia(uploaded("falsa.png", fake), details)).ok).toBe(false);
  });

  it("recognises every raster format the library takes", async () => {
    for (const [format, kind] of [["jpeg", "jpeg"], ["png", "png"], ["gif", "gif"], ["webp", "webp"], ["avif", "avif"]] as const) {
      const bytes = await solid(64, 48).toFormat(format).toBuffer();
      expect(detectMediaKind(bytes)).toBe(kind);
    }
    const gifId = await upload("animacion.gif", await solid(420, 300).gif().toBuffer());
    expect((await row(gifId)).mime).toBe("image/gif");
    const avifId = await upload("foto.avif", await solid(420, 300).avif().toBuffer());
    expect((await row(avifId)).mime).toBe("image/avif");
  });
});

describe("alt text and focal point", () => {
  it("requires alt text, in Spanish, and a focal point from 0 to 1", async () => {
    const before = await storedKeys();
    const result = await uploadMedia(uploaded("pieza.png", await solid(300, 200).png().toBuffer()), { alt: "  ", focoX: "1.5", focoY: "0.2" });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { alt: ["Describa la imagen: qué muestra, en una frase."], focoX: ["El punto de interés horizontal va de 0 a 1."] },
    });
    expect(await storedKeys()).toEqual(before);
    const missing = await uploadMedia(undefined, details);
    expect(missing).toMatchObject({ ok: false, fieldErrors: { archivo: ["Elija la imagen que quiere subir."] } });
  });

  it("centres the focal point by default", async () => {
    const id = await upload("centro.png", await solid(300, 200).png().toBuffer(), { alt: "Pieza al centro" });
    expect(await getMedia(id)).toMatchObject({ focalX: 0.5, focalY: 0.5, alt: "Pieza al centro" });
  });
});

describe("variants", () => {
  it("makes WebP and AVIF at each width that fits, with their sizes recorded", async () => {
    const id = await upload("grande.png", await solid(2000, 1000).png().toBuffer());
    const stored = await row(id);
    expect(stored).toMatchObject({ width: 2000, height: 1000 });
    const summary = stored.variants.map((variant) => `${variant.format} ${variant.width}x${variant.height}`).sort();
    expect(summary).toEqual(["avif 1600x800", "avif 400x200", "avif 800x400", "webp 1600x800", "webp 400x200", "webp 800x400"]);
    for (const variant of stored.variants) {
      const bytes = (await getFileStore().readBytes(variant.path, 10_000_000))!;
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe(variant.format === "avif" ? "heif" : "webp");
      expect([metadata.width, metadata.height]).toEqual([variant.width, variant.height]);
      expect(variant.path).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}-\d+\.(webp|avif)$/);
    }
    expect((await getMediaFile(id, "800.avif"))?.type).toBe("image/avif");
    expect(await getMediaFile(id, "700.webp")).toBeNull();
    expect(await getMediaFile(id, "800.png")).toBeNull();
    expect(await getMediaFile(id, "../800.webp")).toBeNull();
    expect(await getMediaFile(randomUUID(), "800.webp")).toBeNull();
  });

  it("never enlarges a small image", async () => {
    const id = await upload("chica.png", await solid(300, 150).png().toBuffer());
    expect((await row(id)).variants.map((variant) => variant.width)).toEqual([300, 300]);
  });
});

describe("crops around the focal point", () => {
  /** A white picture with a red square at 85 % from the left, halfway down. */
  const withRedMark = () =>
    sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#ffffff" } })
      .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: "#ff0000" } }, left: 1650, top: 450 }])
      .png()
      .toBuffer();

  async function redPixels(bytes: Buffer): Promise<number> {
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    let count = 0;
    for (let index = 0; index < data.length; index += info.channels) if (data[index]! > 200 && data[index + 1]! < 80 && data[index + 2]! < 80) count++;
    return count;
  }

  it("keeps the focal point in a square crop, and moves with it", async () => {
    const id = await upload("marca.png", await withRedMark(), { alt: "Marca roja a la derecha", focoX: "0.85", focoY: "0.5" });
    const square = (await getMediaFile(id, "800-1x1.webp"))!;
    const metadata = await sharp(square.body).metadata();
    expect([metadata.width, metadata.height]).toEqual([800, 800]);
    expect(await redPixels(square.body)).toBeGreaterThan(1000);
    // Made once, then recorded and served from the store.
    expect((await row(id)).variants.filter((variant) => variant.crop === "1x1")).toHaveLength(1);
    expect((await getMediaFile(id, "800-1x1.webp"))!.body.equals(square.body)).toBe(true);

    // Moving the focal point to the left drops the crop; the next one leaves the mark out.
    expect((await updateMediaDetails(id, { alt: "Marca roja a la derecha", focoX: "0.1", focoY: "0.5" })).ok).toBe(true);
    expect((await row(id)).variants.some((variant) => variant.crop)).toBe(false);
    expect(await redPixels((await getMediaFile(id, "800-1x1.webp"))!.body)).toBe(0);
    expect(await getMediaFile(id, "800-5x7.webp")).toBeNull();
  });

  it("cuts the largest region of the ratio, clamped to the edges", () => {
    expect(focalRegion(2000, 1000, 1, 0.85, 0.5)).toEqual({ left: 1000, top: 0, width: 1000, height: 1000 });
    expect(focalRegion(2000, 1000, 1, 0.5, 0.5)).toEqual({ left: 500, top: 0, width: 1000, height: 1000 });
    expect(focalRegion(1000, 2000, 16 / 9, 0.5, 0.1)).toEqual({ left: 0, top: 0, width: 1000, height: 563 });
    expect(focalRegion(1000, 2000, 16 / 9, 0.5, 0.9)).toEqual({ left: 0, top: 1437, width: 1000, height: 563 });
  });
});

describe("SVG", () => {
  const clean = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100"><rect width="200" height="100" fill="#c2410c"/><circle cx="50" cy="50" r="30" fill="url(#g)"/><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs></svg>`;

  it("rasterizes a plain SVG and never keeps or serves the SVG itself", async () => {
    const id = await upload("logo.svg", Buffer.from(clean));
    const stored = await row(id);
    expect(stored.mime).toBe("image/svg+xml");
    expect(stored.width).toBe(1600);
    expect(stored.height).toBe(800);
    expect(stored.fileName).toMatch(/-original\.png$/);
    expect(stored.variants.every((variant) => variant.format === "webp" || variant.format === "avif")).toBe(true);
    expect((await storedKeys()).some((key) => key.endsWith(".svg"))).toBe(false);
    expect(await getMediaFile(id, "logo.svg")).toBeNull();
  });

  it("refuses an SVG with script, event handlers, foreignObject, external references or a DTD", async () => {
    const payloads = {
      script: `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      handler: `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5"/></svg>`,
      foreign: `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div>hola</div></foreignObject></svg>`,
      external: `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://ejemplo.mx/a.png" width="5" height="5"/></svg>`,
      file: `<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd" width="5" height="5"/></svg>`,
      css: `<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://ejemplo.mx/x)" width="5" height="5"/></svg>`,
      dtd: `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>`,
    };
    for (const [name, svg] of Object.entries(payloads)) {
      expect(unsafeSvgReason(svg), name).not.toBeNull();
      const result = await uploadMedia(uploaded(`${name}.svg`, Buffer.from(svg)), details);
      expect(result.ok, name).toBe(false);
      if (!result.ok) expect(failureMessages(result).fieldErrors.archivo?.[0], name).toMatch(/^No aceptamos «.+\.svg»: .+\. Expórtelo de nuevo como SVG sencillo o como PNG\.$/);
    }
    expect(unsafeSvgReason(clean)).toBeNull();
  });
});

describe("usage, search, delete", () => {
  async function entry(collection: string, published: Record<string, unknown> | null, draft: Record<string, unknown> | null = null) {
    await getDb().insert(contentEntries).values({ collection, published, draft, slug: typeof published?.slug === "string" ? published.slug : null });
  }

  it("says where an image is used and deletes it only when confirmed", async () => {
    const id = await upload("cnc.png", await solid(900, 600).png().toBuffer(), { alt: "Centro de maquinado CNC", focoX: "0.5", focoY: "0.5" });
    const unused = await upload("otra.png", await solid(900, 600).png().toBuffer(), { alt: "Otra pieza", focoX: "0.5", focoY: "0.5" });
    await entry("servicios", { slug: "maquinado-cnc", nombre: "Maquinado CNC", imagen: id });
    await entry("paginas", { slug: "nosotros", titulo: "Nosotros", cuerpo: { root: { children: [] } } }, { slug: "nosotros", titulo: "Nosotros", cuerpo: { root: { children: [{ type: "image", mediaId: id }] } } });
    await entry("ajustes", { razon_social: "Forja", logo: id });
    await entry("servicios", { slug: "corte-laser", nombre: "Corte láser", imagen: null });

    expect(await mediaUsage(id)).toEqual(["Ajustes (logotipo)", "Página «Nosotros» (en un borrador)", "Servicio «Maquinado CNC»"]);
    expect(await mediaUsage(unused)).toEqual([]);

    const asked = await deleteMedia(id, false);
    expect(asked).toEqual({ ok: true, value: { deleted: false, usedIn: ["Ajustes (logotipo)", "Página «Nosotros» (en un borrador)", "Servicio «Maquinado CNC»"] } });
    expect(await getMedia(id)).not.toBeNull();

    const paths = [(await row(id)).fileName, ...(await row(id)).variants.map((variant) => variant.path)];
    expect(await deleteMedia(id, true)).toEqual({ ok: true, value: { deleted: true } });
    expect(await getMedia(id)).toBeNull();
    const keys = await storedKeys();
    expect(paths.some((key) => keys.includes(key))).toBe(false);
    expect(await deleteMedia(unused, false)).toEqual({ ok: true, value: { deleted: true } });
    expect((await deleteMedia(id, true)).ok).toBe(false);
  });

  it("searches by alt text or uploaded name", async () => {
    await upload("engrane-helicoidal.png", await solid(300, 200).png().toBuffer(), { alt: "Engrane de bronce", focoX: "0.5", focoY: "0.5" });
    expect((await listMedia("bronce")).map((item) => item.alt)).toEqual(["Engrane de bronce"]);
    expect((await listMedia("HELICOIDAL")).map((item) => item.alt)).toEqual(["Engrane de bronce"]);
    expect(await listMedia("100%")).toEqual([]);
  });

  it("keeps the library's files through the orphan sweep", async () => {
    const id = await upload("conservar.png", await solid(500, 300).png().toBuffer());
    const before = await storedKeys();
    expect(await removeOrphanUploads(Date.now() + 2 * 60 * 60 * 1000)).toBe(0);
    expect(await storedKeys()).toEqual(before);
    expect(await getMediaFile(id, "400.webp")).not.toBeNull();
  });
});

describe("seed", () => {
  /**
   * The pictures as the build rendered them, read from disk: the module's own bundled list is fixed
   * when it is first transformed, which in a clean clone's test run is before the build exists.
   */
  const generatedSiteImages = (): SiteImageSource => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../imagery/generated");
    return {
      manifest: JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as SiteImageSource["manifest"],
      load: async (file) => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file)) : null),
    };
  };

  it("adds the site's pictures once and never revives a deleted one", { timeout: 120_000 }, async () => {
    await getDb().delete(media);
    const added = await seedSiteImagery(undefined, generatedSiteImages());
    expect(added).toBe(19);
    const library = await listMedia();
    expect(library).toHaveLength(19);
    expect(library.every((item) => item.alt.length > 10 && item.widths.length >= 2)).toBe(true);
    const [first] = library;
    expect((await deleteMedia(first!.id, true)).ok).toBe(true);
    expect(await seedSiteImagery(undefined, generatedSiteImages())).toBe(0);
    expect(await listMedia()).toHaveLength(18);
  });
});
