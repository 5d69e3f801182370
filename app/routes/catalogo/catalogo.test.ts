import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The catalogue's route modules below the HTTP server: the listing and product loaders, and the
// image route's answers and headers for a guest, a customer and staff (real sessions, real files).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-routes"));

import { getProductsForCart } from "~/features/catalogue/cart-products.server";
import { addProductImages } from "~/features/catalogue/image-uploads.server";
import { imagesForProduct } from "~/features/catalogue/image-views.server";
import { setProductActive } from "~/features/catalogue/product-commands.server";
import { listProducts } from "~/features/catalogue/public-list.server";
import { seedCatalogue } from "~/features/catalogue/seed.server";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { clientIpContext } from "~/lib/request-context";
import { failureMessages } from "~/lib/result";
import { registeredCustomer, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { loader as catalogueLoader } from "./catalogo";
import { loader as imageLoader } from "./imagen";
import { loader as productLoader } from "./producto";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let staffCookie = "";
let customerCookie = "";
let productId = "";
let productSlug = "";
let imageId = "";

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue();
  const guarda = (await listProducts({ q: "FOR-GUA-640" })).products[0]!;
  productId = guarda.id;
  productSlug = guarda.slug;
  const bytes = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#e8ecf0" } }).png().toBuffer();
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(tmpPath, bytes);
  const added = await addProductImages(productId, [{ field: "images", name: "guarda.png", tmpPath, size: bytes.length, sha256: "", head: bytes.subarray(0, 65_536), tail: bytes.subarray(-65_536) }], "Guarda de policarbonato montada en perfil");
  if (!added.ok) throw new Error(failureMessages(added).fieldErrors.images?.join(" "));
  imageId = (await imagesForProduct(productId))[0]!.id;

  const email = `personal-rutas-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(email);
  customerCookie = (await registeredCustomer("Cliente Curioso", `cliente-rutas-${process.pid}@ejemplo.mx`)).cookie;
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function args(url: string, params: Record<string, string> = {}, cookie?: string) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, "127.0.0.1");
  const request = new Request(`http://localhost${url}`, { headers: cookie ? { cookie } : {} });
  return { request, context, params } as never;
}

async function thrown(run: () => Promise<unknown>): Promise<{ status: number; headers?: Headers; data?: unknown }> {
  try {
    await run();
  } catch (error) {
    // A Response (redirect) or data() with its init (notFound).
    const thrownValue = error as { status?: number; init?: { status?: number }; headers?: Headers; data?: unknown };
    const status = thrownValue.status ?? thrownValue.init?.status;
    if (status === undefined) throw error;
    return { status, headers: thrownValue.headers, data: thrownValue.data };
  }
  throw new Error("expected the loader to throw");
}

describe("/catalogo", () => {
  it("reads search, category, sort and page from the URL", async () => {
    const listing = await catalogueLoader(args("/catalogo?q=polic%C3%A1rbonato&orden=precio-desc"));
    expect(listing.query).toMatchObject({ q: "policárbonato", sort: "precio-desc", page: 1 });
    expect(listing.products.map((product) => product.sku)).toEqual(["FOR-GUA-640"]);
    expect(listing.products[0]!.image).toMatchObject({ id: imageId, width: 1200, height: 900, widths: [320, 640, 1024, 1200] });
  });
});

describe("/catalogo/:slug", () => {
  it("gives the product with JSON-LD whose price includes IVA", async () => {
    const page = await productLoader(args(`/catalogo/${productSlug}`, { slug: productSlug }));
    expect(page.product.sku).toBe("FOR-GUA-640");
    expect(page.jsonLd).toMatchObject({
      "@type": "Product",
      sku: "FOR-GUA-640",
      offers: { "@type": "Offer", price: "1150.00", priceCurrency: "MXN", availability: "https://schema.org/LimitedAvailability" },
    });
    expect(page.ogImage).toMatch(new RegExp(`/imagenes/productos/${imageId}/1200\\.webp$`));
  });

  it("redirects another casing to the canonical slug and answers 404 for unknown or inactive products", async () => {
    const moved = await thrown(() => productLoader(args(`/catalogo/${productSlug.toUpperCase()}`, { slug: productSlug.toUpperCase() })));
    expect(moved.status).toBe(301);
    expect(moved.headers?.get("location")).toBe(`/catalogo/${productSlug}`);

    expect((await thrown(() => productLoader(args("/catalogo/no-existe", { slug: "no-existe" })))).status).toBe(404);
    await setProductActive(productId, false);
    try {
      const gone = await thrown(() => productLoader(args(`/catalogo/${productSlug}`, { slug: productSlug })));
      expect(gone).toMatchObject({ status: 404, data: { message: `Page not found: /catalogo/${productSlug}` } });
    } finally {
      await setProductActive(productId, true);
    }
  });
});

describe("/imagenes/productos/:imageId/:file", () => {
  const url = (file = "640.webp") => `/imagenes/productos/${imageId}/${file}`;

  it("serves an active product's variant as cacheable WebP", async () => {
    const response = (await imageLoader(args(url(), { imageId, file: "640.webp" }))) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect((await sharp(body).metadata())).toMatchObject({ format: "webp", width: 640, height: 480 });
    // The URL the cart gets is this route.
    expect((await getProductsForCart([productId]))[0]!.image).toBe(url("320.webp"));
  });

  it("answers 404 for an unknown image or width", async () => {
    expect((await thrown(() => imageLoader(args(url("641.webp"), { imageId, file: "641.webp" })))).status).toBe(404);
    const other = randomUUID();
    expect((await thrown(() => imageLoader(args(`/imagenes/productos/${other}/640.webp`, { imageId: other, file: "640.webp" })))).status).toBe(404);
  });

  it("hides an inactive product's image from guests and customers (404) and shows it to staff, uncached", async () => {
    await setProductActive(productId, false);
    try {
      expect((await thrown(() => imageLoader(args(url(), { imageId, file: "640.webp" })))).status).toBe(404);
      expect((await thrown(() => imageLoader(args(url(), { imageId, file: "640.webp" }, customerCookie)))).status).toBe(404);
      const response = (await imageLoader(args(url(), { imageId, file: "640.webp" }, staffCookie))) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("content-type")).toBe("image/webp");
    } finally {
      await setProductActive(productId, true);
    }
  });
});
