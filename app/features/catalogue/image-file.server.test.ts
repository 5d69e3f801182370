import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Serving product photos below HTTP: real WebP variants on disk under a temporary DATA_DIR, and
// the rule for inactive products checked with real sessions (guest, customer, staff) resolved the
// way the image route resolves them.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-image-file"));

import { getSessionUser, isStaff } from "~/features/accounts/index.server";
import { notFoundResult, ok } from "~/lib/result";
import type { UploadedFile } from "~/services/files/multipart.server";
import { uploadsDir, uploadsTmpDir } from "~/services/files/storage.server";
import { registeredCustomer, requestMeta, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import { IMAGE_GONE, removeProductImage } from "./image-commands.server";
import { getProductImageFile } from "./image-file.server";
import { addProductImages } from "./image-uploads.server";
import { imagesForProduct } from "./image-views.server";
import { createProduct, setProductActive } from "./product-commands.server";

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let productId = "";
let staffCookie = "";
let customerCookie = "";

beforeAll(async () => {
  database = await createTestDatabase();
  const created = await createProduct({
    name: "Ménsula de acero para riel DIN",
    sku: "FOR-MEN-035",
    slug: undefined,
    category: "Soportes y escuadras",
    shortDescription: "Ménsula de lámina galvanizada para montar riel DIN de 35 mm.",
    description: "",
    price: 9_000,
    ivaBp: 1600,
    unit: "pieza",
    stock: 40,
    minOrder: 1,
    active: true,
  });
  if (!created.ok) throw new Error("product not created");
  productId = created.value.id;
  const added = await addProductImages(productId, [uploaded("mensula.png", await png(2000, 1000))], "Ménsula vista frontal");
  if (!added.ok) throw new Error("image not added");

  const email = `personal-imagenes-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(email);
  customerCookie = (await registeredCustomer("Cliente Curioso", `cliente-imagenes-${process.pid}@ejemplo.mx`)).cookie;
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the image route asks: is the person with this cookie (none: a guest) staff? */
const viewer = (cookie?: string) => async () => isStaff(await getSessionUser(requestMeta("/", cookie ? { cookie } : {})));

/** The photo as someone with this cookie asks for it. */
/** An active product's photo: nobody is asked whether they may see inactive ones. */
const publicOnly = () => Promise.reject(new Error("asked about inactive products for an active one"));

const fileFor = (imageId: string, fileName: string, cookie?: string) => getProductImageFile({ imageId, fileName, mayViewInactive: viewer(cookie) });

/** What parseMultipartUpload hands over for a file: a temporary file plus its first and last bytes. */
function uploaded(name: string, bytes: Buffer): UploadedFile {
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(tmpPath, bytes);
  return { field: "images", name, tmpPath, size: bytes.length, sha256: "", head: bytes.subarray(0, 65_536), tail: bytes.subarray(Math.max(0, bytes.length - 65_536)) };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 194, g: 65, b: 12 } } }).png().toBuffer();

function storedFiles(): string[] {
  const root = uploadsDir();
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith(".webp")).map((file) => path.join(root, file));
}

describe("serving", () => {
  const firstImage = async () => (await imagesForProduct(productId)).find((image) => image.widths.includes(640))!;

  it("gives anyone an active product's variant, and nothing for unknown ids or widths", async () => {
    const image = await firstImage();
    const file = await getProductImageFile({ imageId: image.id, fileName: "640.webp", mayViewInactive: publicOnly });
    expect(file?.visibility).toBe("public");
    expect((await sharp(file!.body).metadata()).width).toBe(640);
    for (const [id, name] of [
      [image.id, "700.webp"],
      [image.id, "640.png"],
      [image.id, "../640.webp"],
      [randomUUID(), "640.webp"],
      ["no-es-un-id", "640.webp"],
    ]) {
      expect(await fileFor(id!, name!)).toBeNull();
    }
  });

  it("hides an inactive product's images from guests and customers, not from staff", async () => {
    const image = await firstImage();
    await setProductActive(productId, false);
    try {
      expect(await fileFor(image.id, "640.webp")).toBeNull();
      expect(await fileFor(image.id, "640.webp", customerCookie)).toBeNull();
      const staff = await fileFor(image.id, "640.webp", staffCookie);
      expect(staff?.visibility).toBe("private");
      expect(staff?.body.length).toBeGreaterThan(0);
    } finally {
      await setProductActive(productId, true);
    }
  });

  it("removes an image with its files", async () => {
    const image = await firstImage();
    const before = storedFiles().length;
    expect(await removeProductImage(productId, image.id)).toEqual(ok());
    expect(storedFiles()).toHaveLength(before - image.widths.length);
    expect(await fileFor(image.id, "640.webp")).toBeNull();
    expect(await removeProductImage(productId, image.id)).toEqual(notFoundResult(IMAGE_GONE));
  });
});
