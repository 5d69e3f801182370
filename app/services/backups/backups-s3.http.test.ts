import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Backups in an S3-compatible bucket (issue 17 §1 and §4, docs/decisions/0060) on the real server
// over HTTP, with stored files in the same bucket (S3_* in the environment fixes both) and a real
// S3 server on loopback: POST /api/backups puts the archive in the bucket under "backups/" (nothing
// stays on the server's disk); it is listed, downloaded byte for byte with a file token, holds
// every stored file of the bucket, and an upload of it under another name goes to the bucket. After
// rows and files are wiped (and a stray file added), the restore through the API brings every row
// and every file back byte for byte, the stray file gone, the replaced state kept as a backup in the
// bucket; a deletion removes the object. `npm run backup` and `npm run restore -- KEY` work with
// the bucket too. On PGlite, or PostgreSQL with TEST_DATABASE_URL.

const { dataDir, AUTH_SECRET } = await vi.hoisted(async () => {
  const secret = (await import("node:crypto")).randomBytes(32).toString("base64url");
  const dir = (await import("../../../tests/support/test-env")).isolateTestEnv("backups-s3-http", { set: { AUTH_SECRET: secret } });
  return { dataDir: dir, AUTH_SECRET: secret };
});

import { openDatabase } from "~/db/client.server";
import { S3Bucket } from "~/services/files/s3-bucket.server";
import { readArchive, sha256, sortedLines, tableRowsQuery } from "../../../tests/support/backup-archives";
import { attachmentsMeasured, downloadBackup, expectEveryRowHasItsFile, expectSameRows, keepSendingQuoteRequests, quiet, restored } from "../../../tests/support/backup-journeys";
import { startS3Server, type TestS3Server } from "../../../tests/support/s3-server";
import { sdkClient } from "../../../tests/support/sdk-client";
import { prepareSuperuserCallers, superuserCallers } from "../../../tests/support/superuser-clients";
import { withAdminClient } from "../../../tests/support/test-database";
import { childEnv, startTestServer, type TestServer } from "../../../tests/support/test-server";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const started: TestServer[] = [];
let s3: TestS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});

afterAll(async () => {
  for (const server of started.reverse()) await server.stop().catch(() => {});
  await s3?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 180_000);

async function start(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer({ dataDir, ...options, env: { AUTH_SECRET, ...s3.env(), ...options?.env } });
  started.push(server);
  return server;
}

/** Every object under a prefix, by key, with its SHA-256. */
async function objects(bucket: S3Bucket): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for await (const object of bucket.list()) found.set(object.key, sha256((await bucket.readBytes(object.key, 1 << 30))!));
  return found;
}

/** What the server keeps in DATA_DIR/backups (temporaries included). */
const localBackups = () => (fs.existsSync(path.join(dataDir, "backups")) ? fs.readdirSync(path.join(dataDir, "backups")) : []);

/**
 * `npm run backup` / `npm run restore` as a terminal runs them, beside (PostgreSQL) or instead of
 * (PGlite) the server. Asynchronously: the S3 server answers from this process.
 */
async function terminal(script: "backup" | "restore", argument: string, databaseUrl: string | undefined): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, `scripts/${script}.mjs`), argument], {
      cwd: ROOT,
      env: { ...childEnv(), DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "", AUTH_SECRET, SMTP_URL: "", LOG_LEVEL: "error", ...s3.env() },
      encoding: "utf8",
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${script} failed: ${String(error)}\n${stdout?.slice(-3000) ?? ""}\n${stderr?.slice(-3000) ?? ""}`);
  }
}

describe("backups in S3-compatible storage", { timeout: 900_000 }, () => {
  it("made, listed, downloaded, restored and deleted in the bucket through the API and the terminal", async () => {
    let server = await start({ prepare: () => prepareSuperuserCallers("s3") });
    const admin = (await superuserCallers(server.url, "s3")).admin;
    const backups = new S3Bucket(s3.config(), "backups/");
    const files = new S3Bucket(s3.config(), "files/");

    await quiet(admin, dataDir);
    const load = keepSendingQuoteRequests([server.url], "s3");
    await load.until(3);
    await load.stop();
    expect(load.failures).toEqual([]);
    // The rows compared after the restore are the archive's: made once the geometry job is done with them.
    await attachmentsMeasured(admin, dataDir);

    await admin.backups.create("respaldo_s3.zip");
    const object = await backups.head("respaldo_s3.zip");
    expect(object?.size).toBeGreaterThan(0);
    // Made in a local temporary file, uploaded, the temporary removed: nothing on the server's disk.
    expect(localBackups()).toEqual([]);
    const listed = (await admin.backups.getFullList()).find((backup) => backup.key === "respaldo_s3.zip");
    expect(listed).toMatchObject({ key: "respaldo_s3.zip", size: object!.size, modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/) });
    const file = await downloadBackup(admin, "respaldo_s3.zip", dataDir);
    expect(sha256(fs.readFileSync(file))).toBe(sha256((await backups.readBytes("respaldo_s3.zip", 1 << 30))!));
    const archive = await readArchive(file);
    expectEveryRowHasItsFile(archive);
    // Every stored file lives in the bucket, and the archive holds each of them.
    const storedBefore = await objects(files);
    expect(storedBefore.size).toBeGreaterThan(0);
    expect(archive.files).toEqual(storedBefore);
    // An archive uploaded through the API goes to the bucket too.
    const bytes = fs.readFileSync(file);
    await admin.backups.upload({ file: new File([bytes], "subido_s3.zip", { type: "application/zip" }) });
    expect((await backups.readBytes("subido_s3.zip", 1 << 30))?.equals(bytes)).toBe(true);
    expect(localBackups()).toEqual([]);

    // Wipe the solicitudes and every stored file, and leave a file the archive does not have.
    let signedIn = admin;
    if (server.databaseUrl) {
      await withAdminClient(server.databaseUrl, (client) => client.query("truncate solicitudes cascade"));
    } else {
      await server.stop();
      started.splice(started.indexOf(server), 1);
      const database = await openDatabase({ dataDir: path.join(dataDir, "db") });
      try {
        await database.db.execute(sql.raw("truncate solicitudes cascade"));
      } finally {
        await database.close();
      }
    }
    await files.remove([...storedBefore.keys()]);
    await files.putBytes("2026/01/sobrante-de-otro-estado", Buffer.from("este archivo no está en el respaldo"));
    if (!server.databaseUrl) {
      server = await start({});
      // The session signed in before the backup is in the archive, so it outlives the restore.
      signedIn = sdkClient(server.url);
      signedIn.authStore.save(admin.authStore.token, admin.authStore.record);
    }

    await signedIn.backups.restore("respaldo_s3.zip");
    await restored(signedIn, server.url);
    // The state it replaced is one more backup, in the bucket too.
    const previous = (await signedIn.backups.getFullList()).find((backup) => backup.key.startsWith("forja_antes_de_restaurar_"));
    expect(await backups.head(previous!.key)).toMatchObject({ size: previous!.size });
    expect(localBackups()).toEqual([]);
    // The stored files are the archive's, byte for byte, back in the bucket; the stray one is gone.
    const storedAfter = await objects(files);
    expect(storedAfter).toEqual(archive.files);

    await signedIn.backups.delete("respaldo_s3.zip");
    expect(await backups.head("respaldo_s3.zip")).toBeNull();
    expect((await signedIn.backups.getFullList()).map((backup) => backup.key)).not.toContain("respaldo_s3.zip");

    // The rows are the archive's (PGlite: read once its server has stopped).
    const tables = new Map<string, string[]>();
    if (server.databaseUrl) {
      for (const table of archive.tables.keys()) {
        tables.set(table, sortedLines(await withAdminClient(server.databaseUrl, async (client) => (await client.query(tableRowsQuery(table))).rows as { line: string }[])));
      }
    } else {
      await server.stop();
      started.splice(started.indexOf(server), 1);
      const database = await openDatabase({ dataDir: path.join(dataDir, "db") });
      try {
        for (const table of archive.tables.keys()) {
          const result = (await database.db.execute(sql.raw(tableRowsQuery(table)))) as unknown as { rows: { line: string }[] };
          tables.set(table, sortedLines(result.rows));
        }
      } finally {
        await database.close();
      }
    }
    expectSameRows(archive, tables);
    expectEveryRowHasItsFile({ tables, files: storedAfter });

    // The terminal: a backup in the bucket, then restored from it by its key.
    const made = await terminal("backup", "desde_terminal.zip", server.databaseUrl);
    expect(made).toContain(`Respaldo creado: s3://${s3.buckets[0]}/backups/desde_terminal.zip`);
    expect(await backups.head("desde_terminal.zip")).not.toBeNull();
    const back = await terminal("restore", "desde_terminal.zip", server.databaseUrl);
    expect(back).toContain(`Respaldo restaurado: s3://${s3.buckets[0]}/backups/desde_terminal.zip`);
    expect(localBackups()).toEqual([]);
    expect(await objects(files)).toEqual(storedAfter);
  });
});
