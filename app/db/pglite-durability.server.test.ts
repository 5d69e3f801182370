import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeRegExp, markerOf, traced, type Trace } from "../../tests/support/strace";

// PGlite on disk commits durably (issue 17 §6, docs/decisions/0044): between the moment an INSERT is
// sent and the moment it returns, its WAL segment is fsynced: watched as real system calls.

let dataDir: string;
beforeAll(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "forja-pglite-fsync-")));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A WAL segment's fsync in the trace. */
const walSync = () => new RegExp(`fsync\\(\\d+<${escapeRegExp(path.join(dataDir, "db", "pg_wal"))}/[0-9A-F]{24}>\\) = 0`);

/** A script for `traced`: `fs`, `sql` and `mark` (a marker in the trace) at hand, then `imports` and `body`. */
const markedScript = (imports: string, body: string) =>
  `import fs from "node:fs";
   import { sql } from "drizzle-orm";
   import { markerPath } from "../../tests/support/strace";
   ${imports}
   const mark = (name: string) => { try { fs.openSync(markerPath(name), "r"); } catch {} };
   ${body}`;

describe("PGlite's commits reach the disk", () => {
  it("fsyncs the WAL before a committed INSERT returns", async () => {
    const trace = await traced(
      markedScript(
        `import { openDatabase } from "~/db/client.server";`,
        `const database = await openDatabase({ dataDir: process.env.DATA_DIR + "/db" });
       await database.db.execute(sql\`create table durable_probe (n int)\`);
       mark("before-commit");
       await database.db.execute(sql\`insert into durable_probe values (1)\`);
       mark("after-commit");
       await database.close();`,
      ),
      dataDir,
    );
    const log = trace.lines.join("\n");
    const before = trace.index(markerOf("before-commit"));
    const after = trace.index(markerOf("after-commit"), before);
    expect(before, log).toBeGreaterThanOrEqual(0);
    expect(after, log).toBeGreaterThan(before);
    const synced = trace.index(walSync(), before);
    expect(synced, `the WAL segment is synced while the INSERT commits\n${log.slice(-4000)}`).toBeGreaterThan(before);
    expect(synced).toBeLessThan(after);
  }, 120_000);

  it("counts a rate-limit request without touching the WAL, a per-account one without flushing it, and still flushes the next real commit (0075, 0079)", async () => {
    const trace = await traced(
      markedScript(
        `import { getDb, openDatabase, useDatabase } from "~/db/client.server";
       import { consumeRateLimit } from "~/services/security/rate-limit.server";`,
        `const database = await openDatabase({ dataDir: process.env.DATA_DIR + "/db" });
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
      ),
      dataDir,
    );
    const log = trace.lines.join("\n");
    const walSynced = walSync();
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
    const syncDuringAccount = trace.index(walSynced, afterCount);
    expect(syncDuringAccount === -1 || syncDuringAccount > afterAccount, `no WAL fsync while the account count commits\n${log.slice(-4000)}`).toBe(true);
    const syncOfInsert = trace.index(walSynced, afterAccount);
    expect(syncOfInsert, `the next INSERT still syncs the WAL\n${log.slice(-4000)}`).toBeGreaterThan(afterAccount);
    expect(syncOfInsert).toBeLessThan(afterInsert);
  }, 120_000);
  /**
   * The part of the trace between the marks `from` and `to` (both required): where it starts, its
   * WAL fsyncs, and its marks and fsyncs in order, one per line (for messages).
   */
  function walSyncsBetween(trace: Trace, from: string, to: string): { start: number; syncs: number[]; summary: string } {
    const log = trace.lines.join("\n");
    const start = trace.index(markerOf(from));
    const end = trace.index(markerOf(to), start);
    expect(start, log).toBeGreaterThanOrEqual(0);
    expect(end, log).toBeGreaterThan(start);
    const pattern = walSync();
    const syncs: number[] = [];
    for (let at = trace.index(pattern, start); at !== -1 && at < end; at = trace.index(pattern, at + 1)) syncs.push(at);
    const summary = trace.lines
      .slice(start, end + 1)
      .map((line) => (pattern.test(line) ? "WAL fsync" : /nonexistent-forja-marker\/([\w-]+)/.exec(line)?.[1]))
      .filter(Boolean)
      .join("\n");
    return { start, syncs, summary };
  }

  /** A traced script on a PGlite database in DATA_DIR, with `mark`, `sql` and `names` of group-commit.server.ts at hand. */
  const groupCommitScript = (names: string, body: string) =>
    markedScript(
      `import { openDatabase, useDatabase } from "~/db/client.server";
     import { ${names} } from "~/db/group-commit.server";`,
      `const database = await openDatabase({ dataDir: process.env.DATA_DIR + "/db" });
     useDatabase(database);
     ${body}`,
    );

  it("shares WAL flushes among the commits of a burst, and answers each only after a flush that follows its commit (0082)", async () => {
    const BURST = 8;
    const trace = await traced(
      groupCommitScript(
        "transactionOnDisk",
        `await database.db.execute(sql\`create table burst_probe (n int)\`);
       mark("before-burst");
       await Promise.all(
         Array.from({ length: ${BURST} }, (_, n) =>
           transactionOnDisk(async (tx) => {
             await tx.execute(sql\`insert into burst_probe values (\${n})\`);
             mark("committing-" + n);
           }).then(() => mark("answered-" + n)),
         ),
       );
       mark("after-burst");
       await database.close();`,
      ),
      dataDir,
    );
    const { start, syncs, summary } = walSyncsBetween(trace, "before-burst", "after-burst");
    // Each answer comes after a WAL fsync that follows its commit: nothing else runs on PGlite's one
    // connection between the mark, after the transaction's last statement, and its COMMIT.
    for (let n = 0; n < BURST; n += 1) {
      const committing = trace.index(markerOf(`committing-${n}`), start);
      const answered = trace.index(markerOf(`answered-${n}`), committing);
      expect(committing, summary).toBeGreaterThan(start);
      expect(answered, summary).toBeGreaterThan(committing);
      expect(syncs.some((at) => at > committing && at < answered), `request ${n} is answered after its commit is on disk\n${summary}`).toBe(true);
    }
    // Far fewer flushes than commits.
    expect(syncs.length, `WAL fsyncs for ${BURST} commits\n${summary}`).toBeLessThanOrEqual(BURST / 2);
  }, 120_000);

  it("answers a request that found another one's rows only once those are on disk (0082)", async () => {
    const trace = await traced(
      groupCommitScript(
        "commitsOnDisk, transactionOnDisk",
        `await database.db.execute(sql\`create table seen_probe (n int)\`);
       mark("before");
       let reachedRow = () => {};
       const rowWritten = new Promise<void>((resolve) => (reachedRow = resolve));
       const first = transactionOnDisk(async (tx) => {
         await tx.execute(sql\`insert into seen_probe values (1)\`);
         mark("committing");
         reachedRow();
       });
       // While the first transaction ends, the duplicate's read and then a slow transaction queue
       // for PGlite's one connection: the read finds the committed row, and the first request's
       // flush, asked for as its commit returns, waits behind the slow one.
       await rowWritten;
       const duplicate = database.db
         .transaction(async (tx) => {
           const found = await tx.execute(sql\`select 1 from seen_probe\`);
           if (found.rows.length !== 1) throw new Error("the row is not there");
           mark("duplicate-found");
         })
         .then(() => commitsOnDisk())
         .then(() => mark("duplicate-answered"));
       const slow = database.db.transaction(async (tx) => {
         await tx.execute(sql\`select 1\`);
         await new Promise((resolve) => setTimeout(resolve, 300));
       });
       await Promise.all([first, duplicate, slow]);
       mark("after");
       await database.close();`,
      ),
      dataDir,
    );
    const { start, syncs, summary } = walSyncsBetween(trace, "before", "after");
    const committing = trace.index(markerOf("committing"), start);
    const found = trace.index(markerOf("duplicate-found"), committing);
    const answered = trace.index(markerOf("duplicate-answered"), found);
    expect(committing, summary).toBeGreaterThan(start);
    expect(found, summary).toBeGreaterThan(committing);
    expect(answered, summary).toBeGreaterThan(found);
    expect(syncs.some((at) => at > committing && at < found), `the row was found before it was on disk (the case under test)\n${summary}`).toBe(false);
    expect(syncs.some((at) => at > found && at < answered), `the duplicate is answered once the row is on disk\n${summary}`).toBe(true);
  }, 120_000);
});
