import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

// The signing secret without AUTH_SECRET: made once, kept in DATA_DIR/auth-secret (0600) for the
// next start, and read from disk once per process (every form token and record token asks for it).
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("auth-secret"));

import { getAuthSecret } from "./secret.server";

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("getAuthSecret", () => {
  it("makes a random secret once, keeps it in DATA_DIR/auth-secret readable by the owner only, and reads that file no more", () => {
    const file = path.join(dataDir, "auth-secret");
    fs.rmSync(file, { force: true });
    const readFileSync = vi.spyOn(fs, "readFileSync");
    try {
      const secret = getAuthSecret();
      expect(secret).toMatch(/^[\w-]{43}$/);
      expect(fs.readFileSync(file, "utf8")).toBe(secret);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      readFileSync.mockClear();

      for (let i = 0; i < 50; i += 1) expect(getAuthSecret()).toBe(secret);
      expect(readFileSync.mock.calls.filter(([name]) => name === file)).toEqual([]);
    } finally {
      readFileSync.mockRestore();
    }
  });
});
