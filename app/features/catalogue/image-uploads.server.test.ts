import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";

// Product images end to end below HTTP: real PNG/JPEG files made here with sharp, the same upload
// records the multipart parser produces, real WebP variants on disk under a temporary DATA_DIR.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-images"));

import { failureMessages, invalid, ok } from "~/lib/result";
import { createMensula, png, publicOnly, storedBytes, storedFiles, uploaded } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { getProductsForCart } from "./cart-products.server";
import { makeProductImageFirst } from "./image-commands.server";
import { getProductImageFile } from "./image-file.server";
import { addProductImages, variantWidths } from "./image-uploads.server";
import { imagesForProduct } from "./image-views.server";
import { productImageUrl } from "./images";
import { listProducts } from "./public-list.server";

let productId = "";
useTestFileDatabase(dataDir, async () => {
  productId = await createMensula();
});

describe("variant widths", () => {
  it("uses the fixed widths that fit and never enlarges", () => {
    expect(variantWidths(3000)).toEqual([320, 640, 1024, 1600]);
    expect(variantWidths(1600)).toEqual([320, 640, 1024, 1600]);
    expect(variantWidths(1200)).toEqual([320, 640, 1024, 1200]);
    expect(variantWidths(700)).toEqual([320, 640]);
    expect(variantWidths(200)).toEqual([200]);
  });
});

describe("uploads", () => {
  it("turns a PNG into WebP variants of the right sizes, recorded with the original's size", async () => {
    const result = await addProductImages(productId, [uploaded("mensula.png", await png(2000, 1000))], "Ménsula vista frontal");
    expect(result).toEqual(ok({ added: 1 }));
    const [image] = await imagesForProduct(productId);
    expect(image).toMatchObject({ alt: "Ménsula vista frontal", width: 2000, height: 1000, widths: [320, 640, 1024, 1600] });

    const files = await storedFiles();
    expect(files).toHaveLength(4);
    for (const file of files) {
      // Server-made names: <year>/<month>/<uuid>-<width>.webp, nothing from the uploaded name.
      expect(file).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}-\d+\.webp$/);
      const metadata = await sharp(await storedBytes(file)).metadata();
      expect(metadata.format).toBe("webp");
      expect(metadata.height).toBe(metadata.width / 2);
    }
    expect((await Promise.all(files.map(async (file) => sharp(await storedBytes(file)).metadata()))).map((metadata) => metadata.width).sort((a, b) => a - b)).toEqual([320, 640, 1024, 1600]);
  });

  it("never enlarges a small image and applies the EXIF orientation of a JPEG", async () => {
    const before = (await storedFiles()).length;
    const jpeg = await sharp({ create: { width: 480, height: 240, channels: 3, background: "#4a5a6c" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await addProductImages(productId, [uploaded("foto-celular.JPG", jpeg)], "Ménsula de lado")).toEqual(ok({ added: 1 }));
    const images = await imagesForProduct(productId);
    // Orientation 6 turns the 480 × 240 picture upright: 240 wide, 480 high.
    expect(images[1]).toMatchObject({ width: 240, height: 480, widths: [240] });
    expect(await storedFiles()).toHaveLength(before + 1);
    const served = await getProductImageFile({ imageId: images[1]!.id, fileName: "240.webp", mayViewInactive: publicOnly });
    const metadata = await sharp(served!.body).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", 240, 480]);
  });

  it("refuses what is not a PNG or JPG by content, in Spanish, and keeps nothing", async () => {
    const before = (await storedFiles()).length;
    const fake = uploaded("plano.png", Buffer.from("%PDF-1.7 esto no es una imagen"));
    const renamed = uploaded("foto.jpg", await png(400, 400));
    const good = uploaded("buena.png", await png(400, 400));
    const result = await addProductImages(productId, [good, fake, renamed], "x");
    expect(result).toEqual(invalid({ fieldErrors: { images: ["«plano.png» no es una imagen PNG o JPG válida.", "«foto.jpg» no es una imagen PNG o JPG válida."] } }));
    expect(await storedFiles()).toHaveLength(before);
    expect(await imagesForProduct(productId)).toHaveLength(2);

    const broken = uploaded("rota.png", Buffer.concat([(await png(300, 300)).subarray(0, 60), Buffer.alloc(200)]));
    const brokenResult = await addProductImages(productId, [broken], "x");
    expect(brokenResult.ok).toBe(false);
    if (!brokenResult.ok) expect(failureMessages(brokenResult).fieldErrors.images?.[0]).toMatch(/^No pudimos (leer|procesar) «rota\.png»/);
  });

  it("puts the first image on cards and in the cart, smallest variant for the cart", async () => {
    const images = await imagesForProduct(productId);
    const [cart] = await getProductsForCart([productId]);
    expect(cart!.image).toBe(productImageUrl(images[0]!.id, 320));
    expect(cart!.image).toMatch(/^\/imagenes\/productos\/[0-9a-f-]{36}\/320\.webp$/);
    const card = (await listProducts({ q: "FOR-MEN-035" })).products[0]!;
    expect(card.image?.id).toBe(images[0]!.id);

    expect(await makeProductImageFirst(productId, images[1]!.id)).toEqual(ok());
    const [again] = await getProductsForCart([productId]);
    expect(again!.image).toBe(productImageUrl(images[1]!.id, 240));
    expect(await makeProductImageFirst(productId, images[1]!.id)).toEqual(ok());
    expect(await makeProductImageFirst(productId, randomUUID())).toMatchObject({ ok: false, kind: "not-found" });
  });
});
