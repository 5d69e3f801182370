import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// scripts/ensure-build.mjs in a scratch directory whose build looks current: the server bundle (the
// build's marker) is newer than every source. The build's later steps (worker bundles, the
// catalogue's models) may still be running then, under the lock.

const SCRIPT = path.resolve(import.meta.dirname, "ensure-build.mjs");
const NODE = path.resolve(import.meta.dirname, "../node_modules/.bin/node");
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function currentBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-ensure-build-"));
  made.push(root);
  fs.mkdirSync(path.join(root, "app"));
  fs.writeFileSync(path.join(root, "app", "root.tsx"), "export {};\n");
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, "app", "root.tsx"), old, old);
  fs.utimesSync(path.join(root, "app"), old, old);
  fs.mkdirSync(path.join(root, "build", "server"), { recursive: true });
  fs.writeFileSync(path.join(root, "build", "server", "index.js"), "export {};\n");
  return root;
}

function run(cwd: string): Promise<{ code: number | null; endedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [SCRIPT], { cwd, stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, endedAt: Date.now() }));
  });
}

describe("ensure-build", () => {
  it("returns at once when the build is current and nobody is building", async () => {
    const root = currentBuild();
    expect((await run(root)).code).toBe(0);
    expect(fs.existsSync(path.join(root, "build.lock"))).toBe(false);
  }, 30_000);

  it("waits for a build under way to finish, even when its marker already looks current", async () => {
    const root = currentBuild();
    fs.mkdirSync(path.join(root, "build.lock"));
    const ended = run(root);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const releasedAt = Date.now();
    fs.rmSync(path.join(root, "build.lock"), { recursive: true });
    const { code, endedAt } = await ended;
    expect(code).toBe(0);
    expect(endedAt).toBeGreaterThanOrEqual(releasedAt);
  }, 30_000);
});
