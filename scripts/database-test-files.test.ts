import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without type declarations
import { databaseTestFiles } from "./database-test-files.mjs";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-db-files-"));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("databaseTestFiles", () => {
  it("keeps the test files that reach TEST_DATABASE_URL through their imports, and only those", () => {
    const root = project({
      "tests/support/db.ts": 'export const url = process.env.TEST_DATABASE_URL;\n',
      "tests/support/helper.ts": 'import { url } from "./db";\nexport { url };\n',
      "tests/support/pure.ts": 'import "./cycle";\nexport const two = 2;\n',
      "tests/support/cycle.ts": 'import "./pure";\n',
      "tests/support/loop-a.ts": 'import "./loop-b";\nimport "./db";\n',
      "tests/support/loop-b.ts": 'import "./loop-a";\n',
      "app/f.test.ts": 'import "../tests/support/loop-a";\n',
      "app/g.test.ts": 'import "../tests/support/loop-b";\n',
      "app/lib/uses-db.server.ts": 'export const x = await import("../../tests/support/helper");\n',
      "app/a.test.ts": 'import { url } from "../tests/support/helper";\n',
      "app/b.test.tsx": 'import { x } from "~/lib/uses-db.server";\n',
      "server/c.test.ts": 'import { two } from "../tests/support/pure";\nimport fs from "node:fs";\n',
      "scripts/d.test.ts": 'const url = process.env.TEST_DATABASE_URL;\n',
      "eslint/e.test.ts": 'import "./missing";\n',
    });
    expect(databaseTestFiles(root)).toEqual(["app/a.test.ts", "app/b.test.tsx", "app/f.test.ts", "app/g.test.ts", "scripts/d.test.ts"]);
  });

  it("finds this project's database tests and leaves its pure ones to the single run", () => {
    const files: string[] = databaseTestFiles(path.resolve(import.meta.dirname, ".."));
    expect(files).toContain("app/features/quotes/lifecycle.server.test.ts");
    expect(files).toContain("app/routes/api/two-processes.test.ts");
    expect(files).not.toContain("app/lib/copy-check.test.ts");
    expect(files).not.toContain("app/db/data-dir-lock.server.test.ts");
  });
});
