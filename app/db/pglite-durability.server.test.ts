import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeRegExp, markerOf, traced } from "../../tests/support/strace";

// PGlite on disk commits durably (issue 17 §6, docs/decisions/0044): between the moment an INSERT is
// sent and the moment it returns, its WAL segment is fsynced: watched as real system calls.

let dataDir: string;
beforeAll(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "forja-pglite-fsync-")));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("PGlite's commits reach the disk", () => {
  it("fsyncs the WAL before a committed INSERT returns", async () => {
    const trace = await traced(
      `import fs from "node:fs";
       import { sql } from "drizzle-orm";
       import { openDatabase } from "~/db/client.server";
       import { markerPath } from "../../tests/support/strace";
       const mark = (name: string) => { try { fs.openSync(markerPath(name), "r"); } catch {} };
       const database = await openDatabase({ dataDir: process.env.DATA_DIR + "/db" });
       await database.db.execute(sql\`create table durable_probe (n int)\`);
       mark("before-commit");
       await database.db.execute(sql\`insert into durable_probe values (1)\`);
       mark("after-commit");
       await database.close();`,
      dataDir,
    );
    const log = trace.lines.join("\n");
    const before = trace.index(markerOf("before-commit"));
    const after = trace.index(markerOf("after-commit"), before);
    expect(before, log).toBeGreaterThanOrEqual(0);
    expect(after, log).toBeGreaterThan(before);
    const walSync = trace.index(new RegExp(`fsync\\(\\d+<${escapeRegExp(path.join(dataDir, "db", "pg_wal"))}/[0-9A-F]{24}>\\) = 0`), before);
    expect(walSync, `the WAL segment is synced while the INSERT commits\n${log.slice(-4000)}`).toBeGreaterThan(before);
    expect(walSync).toBeLessThan(after);
  }, 120_000);

  it("counts a rate-limit request without touching the WAL, a per-account one without flushing it, and still flushes the next real commit (0075, 0079)", async () => {
    const trace = await traced(
      `import fs from "node:fs";
       import { sql } from "drizzle-orm";
       import { getDb, openDatabase, useDatabase } from "~/db/client.server";
       import { consumeRateLimit } from "~/services/security/rate-limit.server";
       import { markerPath } from "../../tests/support/strace";
       const mark = (name: string) => { try { fs.openSync(markerPath(name), "r"); } catch {} };
       const database = await openDatabase({ dataDir: process.env.DATA_DIR + "/db" });
       await database.migrate();
       useDatabase(database);
       await getDb().execute(sql\`create table count_probe (n int)\`);
       mark("before-count");
       const counted = await consumeRateLimit("probe:127.0.0.1", { limit: 5, windowMs: 60_000 });
       if (!counted.allowed || counted.remaining !== 4) throw new Error("unexpected count " + JSON.stringify(counted));
       mark("after-count");
       const locked = await consumeRateLimit("account-sign-in:ana@ejemplo.mx", { limit: 5, windowMs: 60_000, perAccount: true });
       if (!locked.allowed || locked.remaining !== 4) throw new Error("unexpected account count " + JSON.stringify(locked));
       mark("after-account-count");
       await getDb().execute(sql\`insert into count_probe values (1)\`);
       mark("after-insert");
       await database.close();`,
      dataDir,
    );
    const log = trace.lines.join("\n");
    const walSync = new RegExp(`fsync\\(\\d+<${escapeRegExp(path.join(dataDir, "db", "pg_wal"))}/[0-9A-F]{24}>\\) = 0`);
    const beforeCount = trace.index(markerOf("before-count"));
    const afterCount = trace.index(markerOf("after-count"), beforeCount);
    const afterAccount = trace.index(markerOf("after-account-count"), afterCount);
    const afterInsert = trace.index(markerOf("after-insert"), afterAccount);
    expect(beforeCount, log).toBeGreaterThanOrEqual(0);
    expect(afterCount, log).toBeGreaterThan(beforeCount);
    expect(afterAccount, log).toBeGreaterThan(afterCount);
    expect(afterInsert, log).toBeGreaterThan(afterAccount);
    // On PGlite the count lives in the process's memory: not a write, let alone a flush, of the WAL.
    const walTouched = trace.index(new RegExp(escapeRegExp(path.join(dataDir, "db", "pg_wal"))), beforeCount);
    expect(walTouched === -1 || walTouched > afterCount, `no WAL write while counting\n${log.slice(-4000)}`).toBe(true);
    // A per-account count is a row (0079), committed without waiting for the disk (0075).
    const syncDuringAccount = trace.index(walSync, afterCount);
    expect(syncDuringAccount === -1 || syncDuringAccount > afterAccount, `no WAL fsync while the account count commits\n${log.slice(-4000)}`).toBe(true);
    const syncOfInsert = trace.index(walSync, afterAccount);
    expect(syncOfInsert, `the next INSERT still syncs the WAL\n${log.slice(-4000)}`).toBeGreaterThan(afterAccount);
    expect(syncOfInsert).toBeLessThan(afterInsert);
  }, 120_000);
});
