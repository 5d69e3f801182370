import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ESM build script without type declarations
import { buildGeometryWorker } from "../../../scripts/build-geometry-worker.mjs";
// @ts-expect-error -- a plain ESM script without type declarations
import { manyBlocksStep } from "../../../scripts/make-step.mjs";
import { BACKGROUND_NICE, systemThreadId } from "~/services/jobs/background-priority";
import { compiledCadKernel } from "~/services/jobs/cad-kernel-module.server";
import { closeGeometryThreads, DEFAULT_GEOMETRY_BUDGET, GEOMETRY_RETIRE_BYTES, geometryThread, geometryTimeoutMs, measureInWorker, type GeometryOutcome } from "./geometry.server";
import type { GeometryFormat, GeometryThreadRequest, GeometryThreadResponse } from "./geometry-protocol";
import { CUBE_OBJ, CUBE_TRIANGLES, modelXml, text, threeMf } from "./mesh-test-files";
import { boxMesh, toBinaryStl } from "./stl-test-meshes";

// The server's geometry worker thread on files with known answers (tests/fixtures/cad/, written by
// scripts/make-step.mjs and scripts/make-iges.mjs, the STEP cylinder by hand; OBJ and 3MF from
// mesh-test-files.ts): real OpenCascade in a real thread.

const ROOT = path.resolve(import.meta.dirname, "../../..");
// Inside the project, so the bundle finds occt-import-js in node_modules as the build's does.
const WORKER = path.join(ROOT, "node_modules/.cache/forja-geometry-test", `worker-${process.pid}.mjs`);
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(ROOT, "tests/fixtures/cad", name)));

beforeAll(async () => {
  await (buildGeometryWorker as (outfile: string) => Promise<void>)(WORKER);
  return async () => {
    await closeGeometryThreads();
    fs.rmSync(WORKER, { force: true });
  };
});

/** How many of this process's threads run at the background jobs' nice value (Linux: /proc/self/task). */
function threadsAtBackgroundPriority(): number {
  // Field 19 of a task's stat is its nice value, the 17th after the command in parentheses.
  const nice = (task: string) => Number(fs.readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
  return fs.readdirSync("/proc/self/task").filter((task) => {
    try {
      return nice(task) === BACKGROUND_NICE;
    } catch {
      return false; // a thread that ended meanwhile
    }
  }).length;
}

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

  it("measures a 10 mm cube in IGES (trimmed surfaces): 1 cm³, 600 mm², 10 × 10 × 10 mm", async () => {
    const cube = await figures("iges", fixture("cube-10mm.igs"));
    expect(cube).toMatchObject({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, closed: true, unit: "mm" });
  });

  it("converts an IGES cube declared in inches to millimetres", async () => {
    const cube = await figures("iges", fixture("cube-1in.igs"));
    expect(cube.unit).toBe("in");
    expect(cube.bbox).toEqual({ x: 25.4, y: 25.4, z: 25.4 });
    expect(cube.volumeMm3).toBeCloseTo(25.4 ** 3, 2);
  });

  it("subtracts the through-hole of the IGES block (faces with an inner boundary)", async () => {
    const block = await figures("iges", fixture("block-with-hole.igs"));
    expect(block).toMatchObject({ volumeMm3: 3000, areaMm2: 1800, bbox: { x: 20, y: 20, z: 10 }, closed: true });
  });

  it("measures an IGES cylinder (Ø10 × 10 mm, a surface of revolution and two trimmed caps) within 0.5 %", async () => {
    const cylinder = await figures("iges", fixture("cylinder-d10x10.igs"));
    expect(Math.abs(cylinder.volumeMm3 - Math.PI * 250) / (Math.PI * 250)).toBeLessThan(0.005);
    expect(Math.abs(cylinder.areaMm2 - 150 * Math.PI) / (150 * Math.PI)).toBeLessThan(0.005);
    expect(cylinder.bbox.z).toBe(10);
    expect(cylinder.bbox.x).toBeCloseTo(10, 1);
  });

  it("measures an OBJ of quads and a 3MF in inches with the mesh code", async () => {
    expect(await figures("obj", text(CUBE_OBJ))).toMatchObject({ volumeMm3: 1000, areaMm2: 600, bbox: { x: 10, y: 10, z: 10 }, closed: true, unit: null });
    const inches = await figures("3mf", threeMf(modelXml({ unit: "inch", size: 1 })));
    expect(inches).toMatchObject({ bbox: { x: 25.4, y: 25.4, z: 25.4 }, closed: true, unit: "in" });
    expect(inches.volumeMm3).toBeCloseTo(25.4 ** 3, 1);
  });

  it("keeps the figures of an open 3MF mesh, marked open, and says why a broken one has none", async () => {
    const open = await figures("3mf", threeMf(modelXml({ unit: "millimeter", size: 10, triangles: CUBE_TRIANGLES.slice(2) })));
    expect(open).toMatchObject({ closed: false, areaMm2: 500 });
    expect(await measure("3mf", text("PK no es un zip"))).toEqual({
      status: "unreadable",
      reason: "El archivo 3MF está dañado: no es un paquete ZIP completo (falta su índice). Expórtelo de nuevo desde su programa.",
    });
    expect(await measure("obj", text("v 0 0 0\nf 1 2 3\n"))).toMatchObject({ status: "unreadable", reason: expect.stringMatching(/^El archivo OBJ no es válido en la línea 2/) });
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
    // About 200 blocks with a hole: well over a second of OpenCascade, against a budget of 0.05 s.
    const blocks = new TextEncoder().encode((manyBlocksStep as (bytes: number) => { text: string })(200 * 1024).text);
    const started = Date.now();
    const outcome = await measure("step", blocks, { ...DEFAULT_GEOMETRY_BUDGET, timeoutMs: 50, timeoutMsPerMb: 0 });
    expect(outcome).toEqual({ status: "over-budget", reason: "El archivo excede el tiempo de cálculo (0.05 s)." });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await figures("step", fixture("cube-10mm.step"))).volumeMm3).toBe(1000);
  });
});

describe("the kept geometry thread", { timeout: 60_000 }, () => {
  it("measures file after file in one thread, which runs at background priority", async () => {
    await closeGeometryThreads();
    const thread = geometryThread(WORKER);
    const started = thread.started;
    for (const [name, volume] of [["cube-10mm.step", 1000], ["block-with-hole.step", 3000], ["cube-1in.step", 25.4 ** 3]] as const) {
      expect((await figures("step", fixture(name))).volumeMm3).toBeCloseTo(volume, 2);
    }
    expect(await figures("stl", toBinaryStl(boxMesh([10, 20, 30])))).toMatchObject({ volumeMm3: 6000 });
    expect(thread.started - started).toBe(1);
    expect(thread.alive).toBe(true);
    // Under `nice` (10 or more) the helper has nothing lower to go to and leaves the value alone.
    if (systemThreadId() !== null && os.getPriority() < BACKGROUND_NICE) {
      expect(threadsAtBackgroundPriority()).toBe(1);
      await closeGeometryThreads();
      expect(threadsAtBackgroundPriority()).toBe(0);
    }
  });

  it("ends the thread after a file past GEOMETRY_RETIRE_BYTES (its memory is never given back)", async () => {
    expect((await figures("step", fixture("cube-10mm.step"))).volumeMm3).toBe(1000);
    const thread = geometryThread(WORKER);
    expect(thread.alive).toBe(true);
    // A binary STL header that promises more triangles than the bytes hold: read, refused, and big.
    const big = new Uint8Array(GEOMETRY_RETIRE_BYTES + 1024);
    new DataView(big.buffer).setUint32(80, 0xffffff, true);
    expect((await measure("stl", big)).status).toBe("unreadable");
    expect(thread.alive).toBe(false);
    expect((await figures("step", fixture("cube-10mm.step"))).volumeMm3).toBe(1000);
    expect(thread.alive).toBe(true);
  });

  it("keeps the thread after files the kernel refused when its kernel still measures a solid", async () => {
    await closeGeometryThreads();
    const thread = geometryThread(WORKER);
    const started = thread.started;
    // Not a STEP at all, then a STEP with nothing in it: refused by the reader, the kernel unharmed.
    const notStep = new TextEncoder().encode("ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n/* solo comentarios */\nENDSEC;\nEND-ISO-10303-21;\n");
    expect(await measure("step", notStep)).toEqual({ status: "unreadable", reason: "No pudimos leer la geometría de este archivo." });
    expect(await measure("step", new TextEncoder().encode("esto no es un archivo CAD"))).toMatchObject({ status: "unreadable" });
    // A mesh without volume, read in JavaScript: no kernel involved.
    expect((await measure("stl", new Uint8Array(84))).status).toBe("unreadable");
    expect(thread.alive).toBe(true);
    expect((await figures("step", fixture("block-with-hole.step"))).volumeMm3).toBeCloseTo(3000, 2);
    expect(thread.started - started).toBe(1);
  });
});

describe("the compiled kernel shared by the threads", { timeout: 60_000 }, () => {
  it("is compiled once per process and measures in a fresh thread as the thread's own would", async () => {
    const first = await compiledCadKernel();
    expect(first).toBeInstanceOf(WebAssembly.Module);
    expect(await compiledCadKernel()).toBe(first);
    // Each file in a fresh thread (retired after its answer), each instantiating the shared module.
    for (const name of ["cube-10mm.step", "cube-1in.step"]) {
      await closeGeometryThreads();
      expect((await figures("step", fixture(name))).volumeMm3).toBeCloseTo(name === "cube-1in.step" ? 25.4 ** 3 : 1000, 2);
    }
  });

  it("is what a fresh thread loads: a module that is not the kernel fails the file at once, and the thread ends", async () => {
    await closeGeometryThreads();
    const thread = geometryThread(WORKER);
    // The smallest valid WebAssembly module: it instantiates, but Emscripten finds none of the kernel in it.
    const notTheKernel = new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    const bytes = fixture("cube-10mm.step").buffer as ArrayBuffer;
    const outcome = await thread.run<GeometryThreadResponse>(() => ({ message: { format: "step", bytes, kernel: notTheKernel } satisfies GeometryThreadRequest, transfer: [bytes] }), {
      timeoutMs: 20_000,
      retireAfter: (answer) => !answer.ok && !answer.kernelFit,
    });
    expect(outcome).toEqual({ status: "answered", answer: { ok: false, reason: "No pudimos leer la geometría de este archivo." } });
    expect(thread.alive).toBe(false);
    expect((await figures("step", fixture("cube-10mm.step"))).volumeMm3).toBe(1000);
  });
});

describe("geometryTimeoutMs", () => {
  it("gives 30 s plus 2 s per MB, at most 3 minutes", () => {
    const mb = 1024 * 1024;
    expect(geometryTimeoutMs(DEFAULT_GEOMETRY_BUDGET, 0)).toBe(30_000);
    expect(geometryTimeoutMs(DEFAULT_GEOMETRY_BUDGET, 5 * mb)).toBe(40_000);
    expect(geometryTimeoutMs(DEFAULT_GEOMETRY_BUDGET, 50 * mb)).toBe(130_000);
    expect(geometryTimeoutMs(DEFAULT_GEOMETRY_BUDGET, 100 * mb)).toBe(180_000);
  });
});
