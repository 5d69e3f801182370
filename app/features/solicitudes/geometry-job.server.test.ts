import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The geometry job on a real database and file store: it measures pending CAD files, marks the rest,
// records why a file has no figures, retries a lost claim and gives up on a file that keeps failing.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("geometry-job"));

import { eq } from "drizzle-orm";
// The test seeds file rows straight into the database (no feature creates them without an upload).
import { getDb } from "~/db/client.server";
import { solicitudFiles, solicitudes } from "~/db/schema/solicitudes";
import { getFileStore } from "~/services/files/file-store.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
// @ts-expect-error -- a plain ESM build script without type declarations
import { buildGeometryWorker } from "../../../scripts/build-geometry-worker.mjs";
import { DEFAULT_GEOMETRY_BUDGET, startGeometryJob } from "./geometry.server";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const WORKER = path.join(ROOT, "node_modules/.cache/forja-geometry-test", `job-worker-${process.pid}.mjs`);

let solicitudId = "";
useTestFileDatabase(dataDir, async () => {
  await (buildGeometryWorker as (outfile: string) => Promise<void>)(WORKER);
  const [row] = await getDb()
    .insert(solicitudes)
    .values({ number: "SOL-2026-9301", type: "cotizacion", name: "Ana", email: "ana@ejemplo.mx", privacyAcceptedAt: new Date(), formToken: `job-${process.pid}` })
    .returning();
  solicitudId = row.id;
});

afterAll(() => fs.rmSync(WORKER, { force: true }));

async function addFile(name: string, kind: string, bytes: Uint8Array | null, extra: Partial<typeof solicitudFiles.$inferInsert> = {}): Promise<string> {
  const storagePath = `2026/11/${randomUUID()}`;
  if (bytes) await getFileStore().putBytes(storagePath, bytes);
  const [file] = await getDb()
    .insert(solicitudFiles)
    .values({ solicitudId, originalName: name, storagePath, kind, mimeType: "application/octet-stream", size: bytes?.length ?? 10, sha256: "0", ...extra })
    .returning();
  return file.id;
}

async function row(id: string) {
  const [file] = await getDb().select().from(solicitudFiles).where(eq(solicitudFiles.id, id));
  return file;
}

describe("geometry job", () => {
  it("settles every pending file and leaves a fresh claim alone", { timeout: 60_000 }, async () => {
    const cube = await addFile("cubo.step", "step", new Uint8Array(fs.readFileSync(path.join(ROOT, "tests/fixtures/cad/cube-10mm.step"))));
    const drawing = await addFile("plano.pdf", "pdf", new TextEncoder().encode("%PDF-1.4\n"));
    const missing = await addFile("perdido.igs", "iges", null);
    const longAgo = new Date(Date.now() - 60 * 60_000);
    const failing = await addFile("cae.step", "step", new TextEncoder().encode("ISO-10303-21;"), { geometryStatus: "computing", geometryClaimedAt: longAgo, geometryAttempts: 3 });
    const busy = await addFile("ocupado.step", "step", new TextEncoder().encode("ISO-10303-21;"), { geometryStatus: "computing", geometryClaimedAt: new Date(), geometryAttempts: 1 });

    const job = startGeometryJob({ intervalMs: 100, workerFile: WORKER });
    try {
      await vi.waitFor(
        async () => {
          for (const id of [cube, drawing, missing, failing]) expect((await row(id)).geometryStatus).not.toMatch(/pending|computing/);
        },
        { timeout: 45_000, interval: 200 },
      );
    } finally {
      await job.stop();
    }

    const measured = await row(cube);
    expect(measured).toMatchObject({ geometryStatus: "ok", geometryReason: null, geometryAttempts: 1, geometryClaimedAt: null });
    expect(measured.geometry).toMatchObject({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, unit: "mm" });
    expect(measured.geometryComputedAt).toBeInstanceOf(Date);
    expect(await row(drawing)).toMatchObject({ geometryStatus: "not-cad", geometry: null });
    expect(await row(missing)).toMatchObject({ geometryStatus: "unreadable", geometryReason: "No pudimos leer la geometría de este archivo. El archivo no está en el almacén." });
    expect(await row(failing)).toMatchObject({ geometryStatus: "unreadable", geometryReason: "No pudimos leer la geometría de este archivo. El cálculo se interrumpió varias veces." });
    expect(await row(busy)).toMatchObject({ geometryStatus: "computing", geometryAttempts: 1 });
  });

  it("records the sha256 of the stored bytes for files that have none, measured or not, and keeps one already there (0080)", { timeout: 60_000 }, async () => {
    const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    const step = new Uint8Array(fs.readFileSync(path.join(ROOT, "tests/fixtures/cad/cube-10mm.step")));
    const pdf = new TextEncoder().encode("%PDF-1.4\nplano con cotas\n");
    // Past the budget's size: not read for figures, still read (as a stream) for its sha256.
    const big = new Uint8Array(300_000).fill(7);
    const cube = await addFile("cubo.step", "step", step, { sha256: null });
    const drawing = await addFile("plano.pdf", "pdf", pdf, { sha256: null });
    const large = await addFile("grande.stl", "stl", big, { sha256: null });
    const missing = await addFile("perdido.step", "step", null, { sha256: null });
    const known = await addFile("ya.pdf", "pdf", pdf, { sha256: "registrado-antes" });

    const job = startGeometryJob({ intervalMs: 100, workerFile: WORKER, budget: { ...DEFAULT_GEOMETRY_BUDGET, maxBytes: 200_000 } });
    try {
      await vi.waitFor(
        async () => {
          for (const id of [cube, drawing, large, missing, known]) expect((await row(id)).geometryStatus).not.toMatch(/pending|computing/);
        },
        { timeout: 45_000, interval: 200 },
      );
    } finally {
      await job.stop();
    }

    expect(await row(cube)).toMatchObject({ geometryStatus: "ok", sha256: sha256(step) });
    expect(await row(drawing)).toMatchObject({ geometryStatus: "not-cad", sha256: sha256(pdf) });
    expect(await row(large)).toMatchObject({ geometryStatus: "over-budget", sha256: sha256(big) });
    expect(await row(missing)).toMatchObject({ geometryStatus: "unreadable", sha256: null });
    expect(await row(known)).toMatchObject({ geometryStatus: "not-cad", sha256: "registrado-antes" });
  });
});
