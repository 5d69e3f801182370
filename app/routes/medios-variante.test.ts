import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isRouteErrorResponse, RouterContextProvider } from "react-router";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";

// The public address of a library image below the HTTP server: real database, real files, the
// route's own headers (type, cache, nosniff, sandbox) and 404 for anything that is not a variant.

const dataDir = await vi.hoisted(async () => (await import("../../tests/support/test-env")).isolateTestEnv("media-route"));

import { uploadMedia } from "~/features/site/media/media-uploads.server";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { useTestFileDatabase } from "../../tests/support/test-file-database";
import { loader } from "./medios-variante";

let id = "";
useTestFileDatabase(dataDir, async () => {
  const bytes = await sharp({ create: { width: 1000, height: 600, channels: 3, background: "#c2410c" } }).jpeg().toBuffer();
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.mkdirSync(path.dirname(tmpPath), { recursive: true });
  fs.writeFileSync(tmpPath, bytes);
  const result = await uploadMedia({ field: "archivo", name: "placa.jpg", tmpPath, size: bytes.length, sha256: "", head: bytes, tail: bytes }, { alt: "Placa de acero cortada con láser", focoX: "0.3", focoY: "0.5" });
  if (!result.ok) throw new Error(JSON.stringify(result));
  id = result.value.id;
});

/** The loader's answer; a thrown not-found (React Router's data with a status) as its status alone. */
async function get(imageId: string, variant: string): Promise<Response> {
  const request = new Request(`http://127.0.0.1/medios/${imageId}/${variant}`);
  try {
    return (await loader({ request, params: { id: imageId, variant }, context: new RouterContextProvider() } as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    const init = (thrown as { init?: { status?: number } } | null)?.init;
    if (init?.status && !isRouteErrorResponse(thrown)) return new Response(null, { status: init.status });
    throw thrown;
  }
}

describe("GET /medios/:id/:variant", () => {
  it("serves AVIF and WebP with their type, a year of cache, nosniff and a sandbox", async () => {
    for (const [variant, type] of [["800.avif", "image/avif"], ["400.webp", "image/webp"]] as const) {
      const response = await get(id, variant);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(response.headers.get("content-disposition")).toMatch(/^inline; /);
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("content-length")).toBe(String(body.length));
      const metadata = await sharp(body).metadata();
      expect(metadata.format).toBe(type === "image/avif" ? "heif" : "webp");
      expect(metadata.width).toBe(Number(variant.split(".")[0]));
    }
  });

  it("serves a crop for a day, since the focal point may move", async () => {
    const response = await get(id, "800-16x9.webp");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([metadata.width, metadata.height]).toEqual([800, 450]);
  });

  it("answers 404 for anything else", async () => {
    for (const [imageId, variant] of [
      [id, "800.png"],
      [id, "801.webp"],
      [id, "800-5x4.webp"],
      [id, "original.jpg"],
      [randomUUID(), "800.webp"],
      ["no-es-un-id", "800.webp"],
    ]) {
      expect((await get(imageId!, variant!)).status, `${imageId}/${variant}`).toBe(404);
    }
  });
});
