import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodePartImage, PART_IMAGE_SIZES } from "./part-image.server";
import { renderPart } from "./render-part";
import type { PartMesh } from "./types";

/** A 40 × 30 × 20 mm block standing on the floor. */
const block: PartMesh = {
  positions: Float32Array.from([0, 0, 0, 40, 0, 0, 40, 30, 0, 0, 30, 0, 0, 0, 20, 40, 0, 20, 40, 30, 20, 0, 30, 20]),
  indices: Uint32Array.from([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]),
};

describe("encodePartImage", () => {
  it("encodes a render as WebP and AVIF of the size it was rendered at", async () => {
    const raw = renderPart(block, null, { ...PART_IMAGE_SIZES.card, finish: "acero" });
    const encoded = await encodePartImage(raw, { formats: ["webp", "avif"] });
    expect(encoded.width).toBe(640);
    expect(encoded.height).toBe(480);
    const webp = await sharp(encoded.webp).metadata();
    expect(webp).toMatchObject({ format: "webp", width: 640, height: 480, hasAlpha: false });
    const avif = await sharp(encoded.avif).metadata();
    expect(avif).toMatchObject({ format: "heif", compression: "av1", width: 640, height: 480 });
    // Small enough for a card.
    expect(encoded.webp.length).toBeLessThan(40_000);
    expect(encoded.avif.length).toBeLessThan(40_000);
    // And it is the render: the middle is the part, not the light background.
    const { data } = await sharp(encoded.webp).raw().toBuffer({ resolveWithObject: true });
    const middle = (240 * 640 + 320) * 3;
    expect(data[middle]! + data[middle + 1]! + data[middle + 2]!).toBeLessThan(3 * 220);
  });

  it("encodes only the formats asked for and keeps transparency", async () => {
    const raw = renderPart(block, null, { ...PART_IMAGE_SIZES.og, background: "transparent", finish: "bronce" });
    const encoded = await encodePartImage(raw, { formats: ["webp"], quality: 70 });
    expect(Object.keys(encoded).sort()).toEqual(["height", "webp", "width"]);
    const meta = await sharp(encoded.webp).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1200, height: 630, hasAlpha: true });
    const { data } = await sharp(encoded.webp).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0); // top-left corner
    expect(data[(315 * 1200 + 600) * 4 + 3]).toBe(255); // the part
  });

  it("rejects pixels that do not match the declared size", async () => {
    await expect(encodePartImage({ data: new Uint8ClampedArray(10), width: 2, height: 2 }, { formats: ["webp"] })).rejects.toThrow();
  });
});
