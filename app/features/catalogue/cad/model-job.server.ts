import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray, lt, max, or, sql } from "drizzle-orm";
import { afterCommit, getDb, withTransaction } from "~/db/client.server";
import { productImages, productModels, products, type ImageVariant, type ProductModelOutput, type ProductModelSource } from "~/db/schema/catalogue";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "~/services/files/file-store.server";
import { newStoragePath } from "~/services/files/storage.server";
import { startPoller, type Poller } from "~/services/jobs/poller.server";
import { compiledCadKernel } from "~/services/jobs/cad-kernel-module.server";
import { KeptThreads, transferableCopy, type ThreadBudget } from "~/services/jobs/thread.server";
import { removeStoredVariants, writeWebpVariants } from "../image-uploads.server";
import { fromThreadResult, readCache, writeCache, type CachedModel } from "./model-cache";
import type { PartFinish, PartSpec } from "./models";
import type { CadThreadRequest, CadThreadResponse, PartMeta } from "./protocol";

// Product CAD models (docs/decisions/0025): a background job, like the solicitudes' geometry job,
// takes one pending model at a time and builds it in a worker thread under a budget (never on a
// request's thread; the thread is kept between models and runs at background priority,
// docs/decisions/0070): STEP, STL, drawing and rendered image. What a fingerprint produced is kept
// in a cache directory shared by every server of this checkout, so the demo catalogue is built once
// per machine, not once per database, and `npm run build` fills it ahead of time.

export const DEFAULT_CAD_BUDGET: ThreadBudget & { maxStepBytes: number } = { timeoutMs: 120_000, maxOldGenerationMb: 768, maxStepBytes: 30 * 1024 * 1024 };

export function cadWorkerFile(): string {
  return path.resolve(process.env.CAD_WORKER_FILE ?? "build/cad-worker.mjs");
}

/** The model thread is kept between models like the geometry thread (docs/decisions/0070): OpenCascade loads once. */
const cadThreads = new KeptThreads({ idleMs: 60_000, maxJobs: 50 });
/** A STEP larger than this grows the kernel's memory for good: its thread ends after the model. */
const RETIRE_STEP_BYTES = 20 * 1024 * 1024;

/** Builds a model in the kept model thread; the reason in Spanish when it cannot. */
export async function buildInThread(request: CadThreadRequest, budget: ThreadBudget, workerFile: string, signal?: AbortSignal): Promise<{ ok: true; model: CachedModel } | { ok: false; reason: string } | { ok: false; aborted: true }> {
  const { source } = request;
  const kernel = await compiledCadKernel();
  // Each attempt transfers a copy of the STEP's bytes, so a second attempt still has them.
  const job = () => {
    if (source.kind !== "step") return { message: { ...request, kernel }, transfer: [] };
    const bytes = source.bytes.slice(0);
    return { message: { ...request, source: { ...source, bytes }, kernel }, transfer: [bytes] };
  };
  const retire = source.kind === "step" && source.bytes.byteLength > RETIRE_STEP_BYTES;
  // A kernel that failed on a model may be left unfit for the next one: a fresh thread then.
  const outcome = await cadThreads.for(workerFile, budget.maxOldGenerationMb).run<CadThreadResponse>(job, { timeoutMs: budget.timeoutMs, signal, retire, retireAfter: (answer) => !answer.ok });
  switch (outcome.status) {
    case "answered":
      return outcome.answer.ok ? { ok: true, model: await fromThreadResult(outcome.answer) } : { ok: false, reason: outcome.answer.reason };
    case "aborted":
      return { ok: false, aborted: true };
    case "timeout":
      return { ok: false, reason: `El modelo excede el tiempo de cálculo (${Math.round(budget.timeoutMs / 1000)} s).` };
    case "out-of-memory":
      return { ok: false, reason: `El modelo excede la memoria de cálculo (${budget.maxOldGenerationMb} MB).` };
    case "failed":
      return { ok: false, reason: "No pudimos construir el modelo." };
  }
}

/** A claim older than this was lost (the process died mid-model): the model is taken again. */
const STALE_CLAIM_MS = 10 * 60_000;
const MAX_ATTEMPTS = 3;

async function claimNext() {
  const db = getDb();
  const staleBefore = new Date(Date.now() - STALE_CLAIM_MS);
  const candidates = db
    .select({ id: productModels.productId })
    .from(productModels)
    .where(or(eq(productModels.status, "pending"), and(eq(productModels.status, "computing"), lt(productModels.claimedAt, staleBefore))))
    .orderBy(asc(productModels.updatedAt))
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(productModels)
    .set({ status: "computing", claimedAt: new Date(), attempts: sql`${productModels.attempts} + 1` })
    .where(inArray(productModels.productId, candidates))
    .returning();
  if (!row) return null;
  const [product] = await db.select({ name: products.name, sku: products.sku }).from(products).where(eq(products.id, row.productId));
  return product ? { ...row, product } : null;
}

type Claimed = NonNullable<Awaited<ReturnType<typeof claimNext>>>;

function metaOf(model: Pick<Claimed, "material" | "finish" | "notes" | "product">): PartMeta {
  return { title: model.product.name, sku: model.product.sku, material: model.material, notes: model.notes, finish: model.finish as PartFinish };
}

async function fail(productId: string, fingerprint: string, reason: string): Promise<void> {
  await getDb()
    .update(productModels)
    .set({ status: "failed", reason, claimedAt: null, updatedAt: new Date() })
    .where(and(eq(productModels.productId, productId), eq(productModels.fingerprint, fingerprint)));
}

const slugSafe = (sku: string) => sku.replace(/[^A-Za-z0-9_-]+/g, "-");

/** Stores a built model's files and image and records them on the row, replacing what an older fingerprint made. */
async function store(claimed: Claimed, model: CachedModel): Promise<void> {
  const fileStore = getFileStore();
  const base = newStoragePath();
  const name = slugSafe(claimed.product.sku);
  const drawingSize = svgSize(model.drawing);
  const output: ProductModelOutput = {
    fingerprint: claimed.fingerprint,
    volumeMm3: model.volumeMm3,
    areaMm2: model.areaMm2,
    size: model.size,
    files: {
      step: { path: `${base}-${name}.step`, bytes: model.step.length },
      stl: { path: `${base}-${name}.stl`, bytes: model.stl.length },
      drawing: { path: `${base}-${name}.svg`, bytes: Buffer.byteLength(model.drawing), ...drawingSize },
    },
  };
  await fileStore.putBytes(output.files.step.path, model.step);
  await fileStore.putBytes(output.files.stl.path, model.stl);
  await fileStore.putBytes(output.files.drawing.path, Buffer.from(model.drawing));
  const variants = await writeWebpVariants(model.image, model.imageWidth);
  const imageHeight = Math.round((variants.at(-1)!.height / variants.at(-1)!.width) * model.imageWidth);
  const stored = await withTransaction(async () => {
    const db = getDb();
    // Still the model that was claimed? Staff may have uploaded another STEP meanwhile.
    const [current] = await db.select().from(productModels).where(eq(productModels.productId, claimed.productId)).for("update");
    if (!current || current.fingerprint !== claimed.fingerprint) return false;
    let position: number | null = null;
    if (current.imageId) {
      const [old] = await db.delete(productImages).where(eq(productImages.id, current.imageId)).returning({ position: productImages.position, variants: productImages.variants });
      if (old) {
        position = old.position;
        await afterCommit(() => removeStoredVariants(old.variants));
      }
    }
    if (position === null) {
      const [{ last } = { last: null }] = await db.select({ last: max(productImages.position) }).from(productImages).where(eq(productImages.productId, claimed.productId));
      position = (last ?? -1) + 1;
    }
    const [image] = await db
      .insert(productImages)
      .values({ productId: claimed.productId, alt: `${claimed.product.name}, modelo 3D`, position, width: model.imageWidth, height: imageHeight, variants })
      .returning({ id: productImages.id });
    const previous = current.output;
    await db
      .update(productModels)
      .set({ status: "ok", reason: null, output, imageId: image!.id, claimedAt: null, updatedAt: new Date() })
      .where(eq(productModels.productId, claimed.productId));
    if (previous) await afterCommit(() => fileStore.remove([previous.files.step.path, previous.files.stl.path, previous.files.drawing.path]));
    return true;
  });
  if (!stored) {
    await fileStore.remove([output.files.step.path, output.files.stl.path, output.files.drawing.path]);
    await removeStoredVariants(variants as ImageVariant[]);
  }
}

/** The drawing's own width and height attributes (so the page's <img> reserves its box). */
export function svgSize(svg: string): { width: number; height: number } {
  const head = svg.slice(0, 2000);
  const width = Number(/\bwidth="([\d.]+)/.exec(head)?.[1] ?? 0);
  const height = Number(/\bheight="([\d.]+)/.exec(head)?.[1] ?? 0);
  return { width: Math.round(width) || 1200, height: Math.round(height) || 850 };
}

async function sourceRequest(claimed: Claimed, maxStepBytes: number): Promise<{ request: CadThreadRequest; fingerprintOk: true } | { reason: string }> {
  const meta = metaOf(claimed);
  const source = claimed.source as ProductModelSource;
  if (source.kind === "parametric") return { request: { source: { kind: "parametric", spec: source.spec as unknown as PartSpec }, meta }, fingerprintOk: true };
  if (source.size > maxStepBytes) return { reason: `El archivo STEP excede el tamaño máximo (${Math.round(maxStepBytes / 1024 / 1024)} MB).` };
  const bytes = await getFileStore().readBytes(source.path, maxStepBytes);
  if (!bytes) return { reason: "El archivo STEP ya no está en el almacén." };
  return { request: { source: { kind: "step", bytes: transferableCopy(bytes) }, meta }, fingerprintOk: true };
}

export interface ModelJobOptions {
  intervalMs?: number;
  budget?: typeof DEFAULT_CAD_BUDGET;
  workerFile?: string;
}

/** Builds (or takes from the cache) one claimed model; false when there was nothing to do. */
async function processNext(options: Required<ModelJobOptions>, signal: AbortSignal): Promise<boolean> {
  const claimed = await claimNext();
  if (!claimed) return false;
  if (claimed.attempts > MAX_ATTEMPTS) {
    await fail(claimed.productId, claimed.fingerprint, "La construcción del modelo se interrumpió varias veces.");
    return true;
  }
  let model = await readCache(claimed.fingerprint);
  if (!model) {
    const prepared = await sourceRequest(claimed, options.budget.maxStepBytes);
    if ("reason" in prepared) {
      await fail(claimed.productId, claimed.fingerprint, prepared.reason);
      return true;
    }
    const built = await buildInThread(prepared.request, options.budget, options.workerFile, signal);
    if ("aborted" in built) {
      await getDb()
        .update(productModels)
        .set({ status: "pending", claimedAt: null, attempts: sql`${productModels.attempts} - 1` })
        .where(eq(productModels.productId, claimed.productId));
      return false;
    }
    if (!built.ok) {
      await fail(claimed.productId, claimed.fingerprint, built.reason);
      logger.warn({ productId: claimed.productId, reason: built.reason }, "product model failed");
      return true;
    }
    model = built.model;
    // Another process cached it first, or the cache is read-only: the model is stored all the same.
    await writeCache(claimed.fingerprint, model).catch((error: unknown) => logger.warn({ err: error }, "could not cache a CAD model"));
  }
  await store(claimed, model);
  logger.info({ productId: claimed.productId, fingerprint: claimed.fingerprint }, "product model built");
  return true;
}

let active: Poller | undefined;

/** Wakes the model job now (after a STEP upload or a seed); no-op when it is not running. */
export function nudgeModelJob(): void {
  active?.nudge();
}

export function startModelJob(options: ModelJobOptions = {}): Poller {
  const resolved: Required<ModelJobOptions> = { intervalMs: options.intervalMs ?? 15_000, budget: options.budget ?? DEFAULT_CAD_BUDGET, workerFile: options.workerFile ?? cadWorkerFile() };
  if (!fs.existsSync(resolved.workerFile)) logger.warn({ workerFile: resolved.workerFile }, "CAD worker bundle missing: run npm run build");
  const poller = startPoller("product-models", resolved.intervalMs, (signal) => processNext(resolved, signal));
  active = poller;
  return {
    nudge: poller.nudge,
    async stop() {
      if (active === poller) active = undefined;
      await poller.stop();
      await cadThreads.close();
    },
  };
}
