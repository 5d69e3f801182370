import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { productModels, products, type ProductModelOutput, type ProductModelSource, type ProductModelStatus } from "~/db/schema/catalogue";
import { DEMO_MODELS } from "./demo-models";
import { modelFingerprint } from "./model-cache";
import { nudgeModelJob } from "./model-job.server";
import type { PartFinish } from "./models";

// The product_models rows (docs/decisions/0025): seeded for the demo parts, replaced when staff
// upload a STEP, read by the product page and the staff's product screen.

/** Gives every demo product that has no model yet its parametric model; returns how many. Never overwrites one. */
export async function seedDemoModels(): Promise<number> {
  const skus = Object.keys(DEMO_MODELS);
  const rows = await getDb().select({ id: products.id, sku: products.sku, name: products.name }).from(products).where(inArray(products.sku, skus));
  if (rows.length === 0) return 0;
  const inserted = await getDb()
    .insert(productModels)
    .values(
      rows.map((row) => {
        const model = DEMO_MODELS[row.sku]!;
        const meta = { title: row.name, sku: row.sku, material: model.material, notes: model.notes, finish: model.finish };
        return {
          productId: row.id,
          source: { kind: "parametric", spec: model.spec as unknown as Record<string, unknown> } satisfies ProductModelSource,
          material: model.material,
          finish: model.finish,
          notes: model.notes,
          fingerprint: modelFingerprint({ spec: model.spec }, meta),
        };
      }),
    )
    .onConflictDoNothing()
    .returning({ id: productModels.productId });
  if (inserted.length) nudgeModelJob();
  return inserted.length;
}

/** What pages know of a product's model. */
export interface ProductModelView {
  status: ProductModelStatus;
  fingerprint: string;
  reason: string | null;
  source: "parametric" | "step";
  /** The STEP staff uploaded, by its name. */
  sourceName: string | null;
  material: string;
  output: ProductModelOutput | null;
}

export async function modelOfProduct(productId: string): Promise<ProductModelView | null> {
  const [row] = await getDb().select().from(productModels).where(eq(productModels.productId, productId));
  if (!row) return null;
  return {
    status: row.status,
    fingerprint: row.fingerprint,
    reason: row.reason,
    source: row.source.kind,
    sourceName: row.source.kind === "step" ? row.source.name : null,
    material: row.material,
    output: row.output,
  };
}

/**
 * Makes a stored STEP the product's model (staff upload): the job builds its drawing, downloads and
 * image; until then the page keeps what the previous model made.
 */
export async function setStepModel(product: { id: string; name: string; sku: string }, file: { path: string; name: string; size: number; sha256: string }, material: string, finish: PartFinish = "acero"): Promise<void> {
  const meta = { title: product.name, sku: product.sku, material, notes: [], finish };
  const source: ProductModelSource = { kind: "step", path: file.path, name: file.name, size: file.size };
  const values = { source, material, finish, notes: [], fingerprint: modelFingerprint({ stepSha256: file.sha256 }, meta), status: "pending" as const, reason: null, attempts: 0, claimedAt: null, updatedAt: new Date() };
  await getDb().insert(productModels).values({ productId: product.id, ...values }).onConflictDoUpdate({ target: productModels.productId, set: values });
  nudgeModelJob();
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
