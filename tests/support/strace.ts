import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type PluginBuild } from "esbuild";

// Runs a few lines of TypeScript that use the app's modules under strace, to watch the real system
// calls (fsync, rename, …) the code makes: durability cannot be seen any other way.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface Trace {
  lines: string[];
  /** The first line at or after `from` matching `pattern`, or -1. */
  index(pattern: RegExp, from?: number): number;
}

const CALLS = "fsync,fdatasync,rename,renameat,renameat2,openat,mkdir,mkdirat";

/**
 * Runs `script` under `strace -f -y` (descriptors shown with their paths) with DATA_DIR=dataDir,
 * tracing CALLS and `extraCalls`.
 */
export async function traced(script: string, dataDir: string, extraCalls: string[] = []): Promise<Trace> {
  if (spawnSync("strace", ["-V"]).error) throw new Error("Este análisis necesita strace: instálelo con «apt-get install strace».");
  // Bundled next to the sources so its packages resolve from node_modules.
  const work = fs.mkdtempSync(path.join(root, "node_modules", ".forja-strace-"));
  try {
    const entry = path.join(work, "script.ts");
    fs.writeFileSync(entry, script);
    const outfile = path.join(work, "script.mjs");
    // The app's modules (~/…) are bundled; packages stay imports.
    const resolveImports = {
      name: "forja-imports",
      setup(b: PluginBuild) {
        b.onResolve({ filter: /^[^./~]/ }, (args) => ({ path: args.path, external: true }));
        b.onResolve({ filter: /^~\// }, (args) => {
          const base = path.join(root, "app", args.path.slice(2));
          const found = [".ts", ".tsx", "/index.ts"].map((suffix) => base + suffix).find((candidate) => fs.existsSync(candidate));
          return found ? { path: found } : { errors: [{ text: `no module ${args.path}` }] };
        });
      },
    };
    await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", outfile, plugins: [resolveImports], logLevel: "silent" });
    const traceFile = path.join(work, "trace.txt");
    const run = spawnSync("strace", ["-f", "-qq", "-y", "-o", traceFile, "-e", `trace=${[CALLS, ...extraCalls].join(",")}`, process.execPath, outfile], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test" },
      encoding: "utf8",
      timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`the traced script failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    const lines = fs.readFileSync(traceFile, "utf8").split("\n");
    return {
      lines,
      index: (pattern, from = 0) => {
        for (let at = Math.max(0, from); at < lines.length; at += 1) if (pattern.test(lines[at]!)) return at;
        return -1;
      },
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An fsync or fdatasync of the descriptor strace shows as `file`. */
export const syncOf = (file: string) => new RegExp(`f(data)?sync\\(\\d+<${escapeRegExp(file)}>\\) = 0`);

/** A marker in the trace: the script opens this (missing) path, strace shows the attempt. */
export const markerPath = (name: string) => `/nonexistent-forja-marker/${name}`;
export const markerOf = (name: string) => new RegExp(`openat\\(.*${escapeRegExp(markerPath(name))}`);
