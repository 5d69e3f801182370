import type { SubmissionResult } from "@conform-to/react";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

// The staff product screen's posts as the browser sends them, through the route's action: multipart
// with fields and images (the form works without JavaScript), and the small urlencoded forms
// beside it. Real staff session, real database, real files.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("catalogue-form"));

import { imagesForProduct } from "~/features/catalogue/image-views.server";
import { getProductBySlug } from "~/features/catalogue/product-page.server";
import { getProductForStaff } from "~/features/catalogue/staff-products.server";
import { clientIpContext } from "~/lib/request-context";
import { signedInStaffCookie } from "../../../tests/support/auth-requests";
import { png, seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { action } from "./producto";

let staffCookie = "";
useTestFileDatabase(dataDir, async () => {
  await seedDemoCatalogue();
  staffCookie = await signedInStaffCookie(`personal-productos-${process.pid}@forja.mx`);
});

const FIELDS = {
  name: "Abrazadera de acero inoxidable para tubo de 2 in",
  sku: "for-abr-200",
  slug: "",
  category: "Tornillería",
  shortDescription: "Abrazadera tipo U en inoxidable 304 con tuercas y rondanas.",
  description: "## Medidas\n- Para tubo de 60.3 mm",
  price: "85.50",
  ivaBp: "1600",
  unit: "pieza",
  stock: "120",
  minOrder: "10",
  active: "on",
};

function post(fields: Record<string, string>, files: File[] = []): Request {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  for (const file of files) body.append("images", file);
  return new Request("http://localhost/admin/productos/nuevo", { method: "POST", body, headers: { cookie: staffCookie } });
}

function small(fields: Record<string, string>): Request {
  return new Request("http://localhost/admin/productos/x", { method: "POST", body: new URLSearchParams(fields), headers: { cookie: staffCookie } });
}

const pngFile = async (name: string) => new File([new Uint8Array(await png(900, 600))], name, { type: "image/png" });

/** What the screen gets back from one post, read from the action's answer. */
type ProductFormResult =
  | { kind: "saved"; id: string; created: boolean }
  | { kind: "form"; status: number; result: SubmissionResult<string[]> }
  | { kind: "notice"; status: number; message: string; error: boolean }
  | { kind: "not-found" };

/** Runs the route's action as React Router would for /admin/productos/<id> ("nuevo" when null). */
async function submitProductForm(request: Request, productId: string | null): Promise<ProductFormResult> {
  const context = new RouterContextProvider();
  context.set(clientIpContext, "127.0.0.1");
  try {
    const answer = (await action({ request, context, params: { id: productId ?? "nuevo" } } as never)) as unknown as {
      data: { form: SubmissionResult<string[]> | null; notice: { message: string; error: boolean } | null };
      init: { status?: number } | null;
    };
    const status = answer.init?.status ?? 200;
    if (answer.data.form) return { kind: "form", status, result: answer.data.form };
    return { kind: "notice", status, ...answer.data.notice! };
  } catch (error) {
    if (error instanceof Response && error.status === 302) {
      const saved = /^\/admin\/productos\/([0-9a-f-]{36})\?(creado|guardado)=1$/.exec(error.headers.get("location") ?? "");
      if (saved) return { kind: "saved", id: saved[1]!, created: saved[2] === "creado" };
    }
    if ((error as { init?: { status?: number } }).init?.status === 404) return { kind: "not-found" };
    throw error;
  }
}

function expectForm(result: ProductFormResult) {
  if (result.kind !== "form") throw new Error(`expected the form back, got ${result.kind}`);
  return result;
}

describe("product form", () => {
  let createdId = "";

  it("creates a product with its images from one multipart post", async () => {
    const result = await submitProductForm(post(FIELDS, [await pngFile("abrazadera.png")]), null);
    expect(result).toMatchObject({ kind: "saved", created: true });
    if (result.kind !== "saved") return;
    createdId = result.id;
    const product = await getProductForStaff(createdId);
    expect(product).toMatchObject({ sku: "FOR-ABR-200", slug: "abrazadera-de-acero-inoxidable-para-tubo-de-2-in", priceCentavos: 8_550, stock: 120, minOrder: 10, active: true });
    expect(product?.images).toEqual([expect.objectContaining({ alt: FIELDS.name, width: 900, height: 600, widths: [320, 640, 900] })]);
    expect(await getProductBySlug(product!.slug)).not.toBeNull();
  });

  it("returns Spanish field errors with the typed values and saves nothing", async () => {
    const result = expectForm(await submitProductForm(post({ ...FIELDS, name: "Otra abrazadera", sku: "FOR-ABR-200", price: "abc", stock: "-4" }), null));
    expect(result.status).toBe(400);
    expect(result.result.error).toMatchObject({
      price: [expect.stringMatching(/^Escriba un precio mayor que cero/)],
      stock: ["La existencia no puede ser menor que 0."],
    });
    expect(result.result.initialValue).toMatchObject({ name: "Otra abrazadera", price: "abc" });

    const duplicate = expectForm(await submitProductForm(post({ ...FIELDS, name: "Otra abrazadera" }), null));
    expect(duplicate.result.error?.sku).toEqual(["Ya existe otro producto con el SKU FOR-ABR-200. Cada SKU debe ser único."]);
    expect(duplicate.result.initialValue).toMatchObject({ name: "Otra abrazadera" });
  });

  it("refuses a fake image before saving the product", async () => {
    const fake = new File([new TextEncoder().encode("no soy una imagen")], "foto.png", { type: "image/png" });
    const result = expectForm(await submitProductForm(post({ ...FIELDS, sku: "FOR-ABR-300", name: "Abrazadera 3 in" }, [fake]), null));
    expect(result.result.error?.images).toEqual(["«foto.png» no es una imagen PNG o JPG válida."]);
    expect(await getProductBySlug("abrazadera-3-in")).toBeNull();
  });

  it("updates, deactivates and reactivates; manages image alt text and removal", async () => {
    const updated = await submitProductForm(post({ ...FIELDS, slug: "abrazadera-u-2-in", stock: "7", active: "on" }), createdId);
    expect(updated).toMatchObject({ kind: "saved", created: false, id: createdId });
    expect(await getProductForStaff(createdId)).toMatchObject({ slug: "abrazadera-u-2-in", stock: 7 });

    expect(await submitProductForm(small({ intent: "desactivar" }), createdId)).toMatchObject({ kind: "notice", error: false });
    expect(await getProductBySlug("abrazadera-u-2-in")).toBeNull();
    expect(await submitProductForm(small({ intent: "activar" }), createdId)).toMatchObject({ kind: "notice", error: false });
    expect(await getProductBySlug("abrazadera-u-2-in")).not.toBeNull();

    const [image] = await imagesForProduct(createdId);
    expect(await submitProductForm(small({ intent: "imagen-alt", imageId: image!.id, alt: "Abrazadera en U con sus tuercas" }), createdId)).toMatchObject({ kind: "notice", status: 200 });
    expect((await imagesForProduct(createdId))[0]!.alt).toBe("Abrazadera en U con sus tuercas");
    expect(await submitProductForm(small({ intent: "imagen-alt", imageId: image!.id, alt: "" }), createdId)).toMatchObject({ kind: "notice", status: 400, error: true });
    expect(await submitProductForm(small({ intent: "imagen-quitar", imageId: image!.id }), createdId)).toMatchObject({ kind: "notice", status: 200 });
    expect(await imagesForProduct(createdId)).toEqual([]);
    expect(await submitProductForm(small({ intent: "imagen-quitar", imageId: image!.id }), createdId)).toMatchObject({ kind: "notice", status: 404 });
  });

  it("answers not found for an unknown product", async () => {
    expect(await submitProductForm(small({ intent: "activar" }), "00000000-0000-4000-8000-000000000000")).toEqual({ kind: "not-found" });
    expect(await submitProductForm(post(FIELDS), "no-es-un-id")).toEqual({ kind: "not-found" });
    expect(await submitProductForm(post({ ...FIELDS, sku: "FOR-ABR-999" }), "00000000-0000-4000-8000-000000000000")).toEqual({ kind: "not-found" });
  });
});
