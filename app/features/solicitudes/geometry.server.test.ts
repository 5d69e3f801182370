import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ESM build script without type declarations
import { buildGeometryWorker } from "../../../scripts/build-geometry-worker.mjs";
import { DEFAULT_GEOMETRY_BUDGET, measureInWorker, type GeometryOutcome } from "./geometry.server";
import type { GeometryFormat } from "./geometry-protocol";
import { boxMesh, toBinaryStl } from "./stl-test-meshes";

// The server's geometry worker thread on files with known answers (tests/fixtures/cad/, written by
// scripts/make-step.mjs, the cylinder by hand): real OpenCascade (occt-import-js) in a real thread.

const ROOT = path.resolve(import.meta.dirname, "../../..");
// Inside the project, so the bundle finds occt-import-js in node_modules as the build's does.
const WORKER = path.join(ROOT, "node_modules/.cache/forja-geometry-test", `worker-${process.pid}.mjs`);
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(ROOT, "tests/fixtures/cad", name)));

beforeAll(async () => {
  await (buildGeometryWorker as (outfile: string) => Promise<void>)(WORKER);
  return () => fs.rmSync(WORKER, { force: true });
});

async function measure(format: GeometryFormat, bytes: Uint8Array, budget = DEFAULT_GEOMETRY_BUDGET): Promise<GeometryOutcome> {
  const outcome = await measureInWorker(format, bytes, budget, WORKER);
  if (outcome.status === "aborted") throw new Error("not aborted here");
  return outcome;
}

async function figures(format: GeometryFormat, bytes: Uint8Array) {
  const outcome = await measure(format, bytes);
  if (outcome.status !== "ok") throw new Error(`expected figures, got ${JSON.stringify(outcome)}`);
  return outcome.figures;
}

describe("geometry worker", { timeout: 60_000 }, () => {
  it("measures a 10 mm cube in STEP (AP214): 1 cm³, 600 mm², 10 × 10 × 10 mm", async () => {
    const cube = await figures("step", fixture("cube-10mm.step"));
    expect(cube).toMatchObject({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, closed: true, unit: "mm" });
  });

  it("converts a cube declared in inches to millimetres", async () => {
    const cube = await figures("step", fixture("cube-1in.step"));
    expect(cube.unit).toBe("in");
    expect(cube.bbox).toEqual({ x: 25.4, y: 25.4, z: 25.4 });
    expect(cube.volumeMm3).toBeCloseTo(25.4 ** 3, 2);
    expect(cube.areaMm2).toBeCloseTo(6 * 25.4 ** 2, 2);
  });

  it("subtracts a through-hole: 20 × 20 × 10 mm block with a 10 mm square hole", async () => {
    const block = await figures("step", fixture("block-with-hole.step"));
    expect(block).toMatchObject({ volumeMm3: 3000, areaMm2: 1800, bbox: { x: 20, y: 20, z: 10 }, closed: true });
  });

  it("measures a cylinder (Ø10 × 10 mm) from its curved B-rep within 0.5 %", async () => {
    const cylinder = await figures("step", fixture("cylinder-d10x10.step"));
    expect(Math.abs(cylinder.volumeMm3 - Math.PI * 25 * 10) / (Math.PI * 250)).toBeLessThan(0.005);
    expect(Math.abs(cylinder.areaMm2 - (2 * Math.PI * 5 * 10 + 2 * Math.PI * 25)) / (150 * Math.PI)).toBeLessThan(0.005);
    expect(cylinder.bbox.z).toBe(10);
    expect(cylinder.bbox.x).toBeCloseTo(10, 1);
    expect(cylinder.closed).toBe(true);
  });

  it("measures an STL with the same code", async () => {
    const cube = await figures("stl", toBinaryStl(boxMesh([10, 10, 10])));
    expect(cube).toMatchObject({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, unit: null });
  });

  it("says why a cut-off STEP has no figures", async () => {
    expect(await measure("step", fixture("corrupt-cut-off.step"))).toEqual({ status: "unreadable", reason: "No pudimos leer la geometría de este archivo." });
  });

  it("gives the STL parser's reason for a broken STL", async () => {
    const outcome = await measure("stl", new TextEncoder().encode("solid roto\nfacet normal 0 0 1\n"));
    expect(outcome.status).toBe("unreadable");
    if (outcome.status === "unreadable") expect(outcome.reason).toMatch(/STL/);
  });

  it("stops a file over its time budget, and the next file is measured as usual", async () => {
    const started = Date.now();
    const outcome = await measure("step", fixture("cylinder-d10x10.step"), { ...DEFAULT_GEOMETRY_BUDGET, timeoutMs: 5 });
    expect(outcome).toEqual({ status: "over-budget", reason: "El archivo excede el tiempo de cálculo (0.005 s)." });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await figures("step", fixture("cube-10mm.step"))).volumeMm3).toBe(1000);
  });
});
