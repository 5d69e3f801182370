import * as r from "replicad";
import opencascade from "replicad-opencascadejs";

// The server's CAD kernel: replicad on OpenCascade (WebAssembly), loaded once per thread or process,
// silenced (STEP writing prints a report). In Node, Emscripten finds the .wasm beside its script in
// node_modules by itself. Used by the worker threads, the build's scripts and the tests.

let kernel: Promise<typeof r> | undefined;

type Instantiate = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;

/**
 * Emscripten's hook to instantiate an already compiled module. Emscripten waits for `done` and has
 * no way to hear of a failure: a module that cannot be instantiated (no memory for it) or that
 * Emscripten cannot use fails the load through `fail`, instead of leaving it waiting forever.
 */
function instantiateFrom(compiled: WebAssembly.Module, fail: (error: unknown) => void): Instantiate {
  return (imports, done) => {
    WebAssembly.instantiate(compiled, imports)
      .then((instance) => done(instance, compiled))
      .catch(fail);
    return {};
  };
}

/**
 * Loads the kernel in this thread. `compiled`: the kernel's WebAssembly already compiled in this
 * process (services/jobs/cad-kernel-module.server.ts); the thread then instantiates it instead of
 * compiling its 22 MB again, and shares the code compiled so far (docs/decisions/0072).
 */
export function loadCadKernel(compiled?: WebAssembly.Module): Promise<typeof r> {
  kernel ??= new Promise<unknown>((resolve, reject) => {
    const hook = compiled ? { instantiateWasm: instantiateFrom(compiled, reject) } : {};
    (opencascade as unknown as (options: object) => Promise<unknown>)({ print() {}, printErr() {}, ...hook }).then(resolve, reject);
  }).then(
    (oc) => {
      r.setOC(oc as never);
      return r;
    },
    (error: unknown) => {
      // The next job tries again (this thread usually ends first: its answer is a failure).
      kernel = undefined;
      throw error;
    },
  );
  return kernel;
}

/** A shape's bounding-box size in mm along X, Y and Z. */
export function shapeSize(shape: { boundingBox: { bounds: [number[], number[]] } }): { x: number; y: number; z: number } {
  const [min, max] = shape.boundingBox.bounds;
  return { x: max[0]! - min[0]!, y: max[1]! - min[1]!, z: max[2]! - min[2]! };
}
