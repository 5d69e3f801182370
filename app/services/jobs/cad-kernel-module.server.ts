import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { logger } from "~/lib/logger.server";

// The CAD kernel's WebAssembly (OpenCascade, 22 MB), compiled once per process and handed to every
// thread that loads the kernel (docs/decisions/0072). Each fresh thread used to compile it again:
// about 0.3 s of CPU per thread on V8's own helper threads, which run at normal priority even when
// the job's thread runs at background priority. A burst of files the kernel cannot read (each ends
// its thread) then kept a core busy for minutes next to the requests. A compiled module posted to a
// thread shares its code: what one thread compiled (lazily, function by function) the next reuses.

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/** The kernel's .wasm, beside the package's entry in node_modules. */
function kernelWasmFile(): string {
  const entry = createRequire(import.meta.url).resolve("replicad-opencascadejs");
  return path.join(path.dirname(entry), "replicad_single.wasm");
}

/**
 * The compiled kernel, or undefined when it cannot be compiled here (the thread then compiles its
 * own, as before). Compiled on first use; the module stays for the life of the process.
 */
export function compiledCadKernel(): Promise<WebAssembly.Module | undefined> {
  compiled ??= Promise.resolve()
    .then(() => fs.readFile(kernelWasmFile()))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error: unknown) => {
      logger.warn({ err: error }, "could not compile the CAD kernel once for its threads");
      return undefined;
    });
  return compiled;
}
