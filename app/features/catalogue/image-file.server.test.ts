import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";

// Serving product photos below HTTP: real WebP variants on disk under a temporary DATA_DIR, and
// the rule for inactive products checked with real sessions (guest, customer, staff) resolved the
// way the image route resolves them.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-image-file"));

import { getSessionUser, isStaff } from "~/features/accounts/index.server";
import { notFoundResult, ok } from "~/lib/result";
import { registeredCustomer, requestMeta, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { createMensula, png, publicOnly, storedFiles, uploaded } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { IMAGE_GONE, removeProductImage } from "./image-commands.server";
import { getProductImageFile } from "./image-file.server";
import { addProductImages } from "./image-uploads.server";
import { imagesForProduct } from "./image-views.server";
import { setProductActive } from "./product-commands.server";

let productId = "";
let staffCookie = "";
let customerCookie = "";

useTestFileDatabase(dataDir, async () => {
  productId = await createMensula();
  const added = await addProductImages(productId, [uploaded("mensula.png", await png(2000, 1000))], "Ménsula vista frontal");
  if (!added.ok) throw new Error("image not added");

  const email = `personal-imagenes-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(email);
  customerCookie = (await registeredCustomer("Cliente Curioso", `cliente-imagenes-${process.pid}@ejemplo.mx`)).cookie;
});

/** What the image route asks: is the person with this cookie (none: a guest) staff? */
const viewer = (cookie?: string) => async () => isStaff(await getSessionUser(requestMeta("/", cookie ? { cookie } : {})));

/** The photo as someone with this cookie asks for it. */
const fileFor = (imageId: string, fileName: string, cookie?: string) => getProductImageFile({ imageId, fileName, mayViewInactive: viewer(cookie) });

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
    const before = (await storedFiles()).length;
    expect(await removeProductImage(productId, image.id)).toEqual(ok());
    expect(await storedFiles()).toHaveLength(before - image.widths.length);
    expect(await fileFor(image.id, "640.webp")).toBeNull();
    expect(await removeProductImage(productId, image.id)).toEqual(notFoundResult(IMAGE_GONE));
  });
});
