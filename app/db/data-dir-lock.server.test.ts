import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, openDatabase, type Database } from "./client.server";

// PGlite belongs to one process: openDatabase({ dataDir }) takes a lock file beside the directory
// (`<dataDir>.lock`, holding the owner's PID). These tests use real PGlite directories on disk and
// real processes as lock owners.

let root: string;
const opened: Database[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-lock-test-"));
});

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close().catch(() => {});
  fs.rmSync(root, { recursive: true, force: true });
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

async function open(dataDir: string): Promise<Database> {
  const database = await openDatabase({ dataDir });
  opened.push(database);
  return database;
}

/** A real process that stays alive until killed: stands for a running server holding the lock. */
async function liveProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid!, "SIGKILL");
  await exited;
}

async function count(database: Database): Promise<number> {
  const result = (await database.db.execute(sql`select count(*)::int as n from marks`)) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}

describe("openDatabase with a PGlite data directory", () => {
  it("writes a lock file with its PID beside the directory and removes it on close; the data persists", async () => {
    const dataDir = path.join(root, "db");
    const lockFile = `${dataDir}.lock`;
    const first = await open(dataDir);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    await first.db.execute(sql`create table marks (id int)`);
    await first.db.execute(sql`insert into marks values (1), (2)`);
    await first.close();
    expect(fs.existsSync(lockFile)).toBe(false);

    const again = await open(dataDir);
    expect(await count(again)).toBe(2);
    await again.close();
  });

  it("accepts a trailing slash on the directory and still locks <dir>.lock", async () => {
    const dataDir = path.join(root, "db");
    const database = await open(`${dataDir}/`);
    expect(fs.existsSync(`${dataDir}.lock`)).toBe(true);
    await database.close();
    expect(fs.existsSync(`${dataDir}.lock`)).toBe(false);
  });

  it("refuses, in Spanish, while another live process holds the directory, and leaves the lock and data alone", async () => {
    const dataDir = path.join(root, "db");
    const lockFile = `${dataDir}.lock`;
    const seed = await open(dataDir);
    await seed.db.execute(sql`create table marks (id int)`);
    await seed.db.execute(sql`insert into marks values (1)`);
    await seed.close();

    const server = await liveProcess();
    fs.writeFileSync(lockFile, String(server.pid));

    const error = await openDatabase({ dataDir }).then(
      (database) => {
        opened.push(database);
        return undefined;
      },
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DatabaseInUseError);
    expect((error as Error).message).toContain(`está en uso por el proceso ${server.pid}`);
    expect((error as Error).message).toContain(dataDir);
    expect((error as Error).message).toMatch(/Deténgalo y vuelva a intentarlo/);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(server.pid));

    // Once that process is gone its lock is stale: the next open takes it over, data intact.
    await stop(server);
    const after = await open(dataDir);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    expect(await count(after)).toBe(1);
  });

  it("takes over a stale lock left by a dead process", async () => {
    const dataDir = path.join(root, "db");
    const lockFile = `${dataDir}.lock`;
    fs.writeFileSync(lockFile, "999999");
    const database = await open(dataDir);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    await database.ping();
    await database.close();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it.each(["", "basura", "0", "1.5"])("takes over a lock file with unusable content %j", async (content) => {
    const dataDir = path.join(root, "db");
    fs.writeFileSync(`${dataDir}.lock`, content);
    const database = await open(dataDir);
    expect(fs.readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    await database.close();
  });

  // BUG (reported): a negative number in the lock file goes to process.kill(-n, 0), which signals a
  // process group (-1: every process we may signal) and so always looks "alive": the directory stays
  // locked forever with a message about "el proceso -1". Remove `.fails` once owners must be > 0.
  it("takes over a lock file holding a negative number", async () => {
    const dataDir = path.join(root, "db");
    fs.writeFileSync(`${dataDir}.lock`, "-1");
    await open(dataDir);
    expect(fs.readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
  });

  it("keeps separate directories independent", async () => {
    const a = await open(path.join(root, "a"));
    const b = await open(path.join(root, "b"));
    await a.ping();
    await b.ping();
  });

  // BUG (reported): lockDataDir treats a lock holding this process's own PID as stale, so a second
  // openDatabase on the same directory in the same process silently opens a second PGlite on files
  // the first one still has open (and the first close() then deletes the lock the second one
  // holds). Remove `.fails` once the lock tracks the directories this process holds.
  it("refuses a second open of the same directory while the first is open, even in the same process", async () => {
    const dataDir = path.join(root, "db");
    await open(dataDir);
    await expect(openDatabase({ dataDir }).then((database) => (opened.push(database), database))).rejects.toBeInstanceOf(DatabaseInUseError);
  });

  it("opens the directory again after close", async () => {
    const dataDir = path.join(root, "db");
    const first = await open(dataDir);
    await first.close();
    const second = await open(dataDir);
    await second.ping();
  });

  it("an in-memory database takes no lock", async () => {
    const before = fs.readdirSync(root);
    const database = await open(undefined as unknown as string);
    await database.ping();
    expect(fs.readdirSync(root)).toEqual(before);
  });
});
