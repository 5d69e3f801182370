// The Vitest files whose outcome depends on which database the tests run on: those that reach
// TEST_DATABASE_URL through their own imports (tests/support/test-database.ts, test-server.ts and
// the like). The CI runs these again on a PostgreSQL server; every other test file does the same
// work on either database, and one run of it is enough.
import fs from "node:fs";
import path from "node:path";

const TEST_ROOTS = ["app", "server", "scripts", "eslint"];
const TEST_FILE = /\.test\.tsx?$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts"];

function testFiles(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(file);
      } else if (TEST_FILE.test(entry.name)) found.push(file);
    }
  };
  for (const dir of TEST_ROOTS) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return found.sort();
}

/** The project files a module imports statically or dynamically (`~/` is app/). */
function localImports(root, file, text) {
  const imports = [];
  for (const match of text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*["']([^"']+)["']/g)) {
    const specifier = match[1];
    let base;
    if (specifier.startsWith("~/")) base = path.join(root, "app", specifier.slice(2));
    else if (specifier.startsWith(".")) base = path.resolve(path.dirname(file), specifier);
    else continue;
    const resolved = EXTENSIONS.map((extension) => base + extension).find((candidate) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile());
    if (resolved) imports.push(resolved);
  }
  return imports;
}

/** Relative paths of the test files that reach TEST_DATABASE_URL. */
export function databaseTestFiles(root = process.cwd()) {
  const modules = new Map(); // file -> { mentions, imports }, each file read once
  const read = (file) => {
    let module = modules.get(file);
    if (!module) {
      const text = fs.readFileSync(file, "utf8");
      module = { mentions: text.includes("TEST_DATABASE_URL"), imports: localImports(root, file, text) };
      modules.set(file, module);
    }
    return module;
  };
  const reaches = (start) => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      const module = read(queue.shift());
      if (module.mentions) return true;
      for (const imported of module.imports) {
        if (seen.has(imported)) continue;
        seen.add(imported);
        queue.push(imported);
      }
    }
    return false;
  };
  return testFiles(root)
    .filter(reaches)
    .map((file) => path.relative(root, file));
}
