import fs from "node:fs";
import path from "node:path";
import type PocketBase from "pocketbase";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";

// PocketBase's /api/backups on real servers (issue 17 §1, docs/decisions/0055): while quote requests
// with attachments keep arriving, a superuser makes a backup through the API (every request keeps
// being answered), the database and the stored files are wiped, and the backup is restored through
// POST /api/backups/{key}/restore on the running server. Then every row and every stored file is
// the archive's, byte for byte, and every attachment row has its file — on PGlite (one process)
// and on PostgreSQL with two processes, where the other process serves the restored state too.
// Only superusers may use any of it.

const { dataDir, AUTH_SECRET } = await vi.hoisted(async () => {
  const secret = (await import("node:crypto")).randomBytes(32).toString("base64url");
  const dir = (await import("../../../tests/support/test-env")).isolateTestEnv("backups-http", { set: { AUTH_SECRET: secret } });
  return { dataDir: dir, AUTH_SECRET: secret };
});

import { openDatabase, useDatabase } from "~/db/client.server";
import { readArchive, sha256, sortedLines, tableRowsQuery, type ArchiveContent } from "../../../tests/support/backup-archives";
import { pdfFile } from "../../../tests/support/minimal-files";
import { agedFormToken, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";
import { expectSuperusersOnly, prepareSuperuserCallers, superuserCallers } from "../../../tests/support/superuser-clients";
import { withAdminClient } from "../../../tests/support/test-database";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { usePostgresServer, type PostgresServer } from "../../../tests/support/throwaway-postgres";

const TIMEOUT_MS = 15_000;
/** Written after the restore by the requests that check it (each request is logged): not part of the restored state. */
const LIVE_TABLES = new Set(["logs"]);
/**
 * The mail queue: the worker goes on delivering what the restored queue holds (a quote request's
 * emails pending at the backup are sent after the restore), so its rows must be the archive's,
 * their delivery state may have moved on.
 */
const QUEUE_TABLES = new Set(["outbox"]);

const started: { stop(): Promise<void> }[] = [];
let postgres: PostgresServer | undefined;

afterAll(async () => {
  for (const server of started.reverse()) await server.stop().catch(() => {});
  await postgres?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 180_000);

async function start(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer({ ...options, env: { AUTH_SECRET, ...options?.env } });
  started.push(server);
  return server;
}

interface Sent {
  number: string;
  /** When the server answered (performance.now()). */
  at: number;
}

/** Quote requests with a PDF attachment, two at a time, to `urls` in turn until stopped; what was accepted and what failed. */
function keepSendingQuoteRequests(urls: string[], label: string) {
  const accepted: Sent[] = [];
  const failures: string[] = [];
  let stopped = false;
  let n = 0;
  const one = async () => {
    n += 1;
    const i = n;
    const url = urls[i % urls.length]!;
    const form = new FormData();
    for (const [key, value] of Object.entries(validQuoteFields({ name: `Cliente Respaldo ${i}`, email: `respaldo-${label}-${i}-${process.pid}@ejemplo.mx` }))) {
      for (const item of [value].flat()) form.append(key, String(item));
    }
    form.set("formToken", agedFormToken("cotiza"));
    form.append("files", new Blob([Buffer.from(pdfFile(`solicitud ${label} ${i}`))], { type: "application/pdf" }), `plano ${i}.pdf`);
    try {
      const response = await fetch(`${url}/api/cotiza`, {
        method: "POST",
        body: form,
        headers: { Origin: url, "X-Forwarded-For": `10.77.${(i >> 8) & 255}.${i & 255}` },
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await response.json()) as { ok: boolean; number?: string };
      if (response.status === 200 && body.ok && body.number) accepted.push({ number: body.number, at: performance.now() });
      else failures.push(`${response.status} ${JSON.stringify(body)}`);
    } catch (error) {
      failures.push(String(error));
    }
  };
  const lanes = [0, 1].map(async () => {
    while (!stopped) await one();
  });
  return {
    accepted,
    failures,
    async until(count: number): Promise<void> {
      const deadline = Date.now() + 60_000;
      while (accepted.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(accepted.length).toBeGreaterThanOrEqual(count);
    },
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(lanes);
    },
  };
}

/** Downloads backup `key` with a file token, as the admin panel's link does; the archive's local path. */
async function download(admin: PocketBase, key: string): Promise<string> {
  const token = await admin.files.getToken();
  const response = await fetch(admin.backups.getDownloadURL(token, key), { signal: AbortSignal.timeout(60_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename=${key}`);
  const file = path.join(fs.mkdtempSync(path.join(dataDir, "descarga-")), key);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** Waits for the restore started by the 204 to end: the site answers again and the replaced state is listed as a backup. */
async function restored(admin: PocketBase, url: string): Promise<{ sawMaintenance: boolean }> {
  let sawMaintenance = false;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/api/backups`, { headers: { Authorization: admin.authStore.token }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (response.status === 503) {
      sawMaintenance = true;
      expect(response.headers.get("retry-after")).toBe("30");
    } else if (response.status === 200) {
      const list = (await response.json()) as { key: string }[];
      if (list.some((backup) => backup.key.startsWith("forja_antes_de_restaurar_"))) return { sawMaintenance };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the restore did not end within two minutes");
}

/** The archive's attachment rows each have their file in the archive, with the row's SHA-256. */
function expectEveryRowHasItsFile(content: { tables: Map<string, string[]>; files: Map<string, string> }): void {
  const rows = (content.tables.get("solicitud_files") ?? []).map((line) => JSON.parse(line) as { storage_path: string; sha256: string });
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(content.files.get(row.storage_path), row.storage_path).toBe(row.sha256);
}

function numbersIn(archive: ArchiveContent): Set<string> {
  return new Set((archive.tables.get("solicitudes") ?? []).map((line) => (JSON.parse(line) as { number: string }).number));
}

/** Authorization of every endpoint: superusers only (the download: a superuser's file token). */
async function expectAuthorization(url: string, label: string): Promise<PocketBase> {
  const clients = await superuserCallers(url, label);
  await expectSuperusersOnly(clients, (client) => client.backups.getFullList());
  await expectSuperusersOnly(clients, (client) => client.backups.create("no_permitido.zip"));
  await expectSuperusersOnly(clients, (client) => client.backups.upload({ file: new Blob([Buffer.from("PK")], { type: "application/zip" }) }));
  await expectSuperusersOnly(clients, (client) => client.backups.delete("no_permitido.zip"));
  await expectSuperusersOnly(clients, (client) => client.backups.restore("no_permitido.zip"));
  // A file token of anyone but a superuser does not download.
  await clients.admin.backups.create("prueba_permisos.zip");
  for (const name of ["editor", "ventas", "customer"] as const) {
    const token = await clients[name].files.getToken();
    const response = await fetch(clients[name].backups.getDownloadURL(token, "prueba_permisos.zip"), { signal: AbortSignal.timeout(TIMEOUT_MS) });
    expect(response.status, name).toBe(403);
    expect(await response.json()).toEqual({ status: 403, message: "Insufficient permissions to access the resource.", data: {} });
  }
  const anonymous = await fetch(`${url}/api/backups/prueba_permisos.zip`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  expect(anonymous.status).toBe(403);
  // PocketBase's validation and refusals.
  expect((await sdkFailure(clients.admin.backups.create("Mayúsculas.zip"))).response).toEqual({
    status: 400,
    message: "An error occurred while validating the submitted data.",
    data: { name: { code: "validation_match_invalid", message: "Must be in a valid format." } },
  });
  expect((await sdkFailure(clients.admin.backups.create("prueba_permisos.zip"))).response.data).toEqual({
    name: { code: "validation_backup_name_exists", message: "The backup file name is invalid or already exists." },
  });
  expect((await sdkFailure(clients.admin.backups.restore("no_existe.zip"))).response).toEqual({ status: 400, message: "Missing or invalid backup file.", data: {} });
  await clients.admin.backups.delete("prueba_permisos.zip");
  expect((await clients.admin.backups.getFullList()).map((backup) => backup.key)).not.toContain("prueba_permisos.zip");
  return clients.admin;
}

/**
 * Waits until the start-up's background work (the catalogue's CAD models, the media library's seed)
 * has stopped writing: two backups a few seconds apart hold the same files and the same rows of the
 * tables that work writes. A backup taken while it runs would be restored into a server that
 * resumes it, writing after the restore what the archive cannot hold.
 */
async function quiet(admin: PocketBase): Promise<void> {
  const seen = async (name: string) => {
    await admin.backups.create(name);
    const archive = await readArchive(await download(admin, name));
    await admin.backups.delete(name);
    return JSON.stringify([[...archive.files.keys()].sort(), ...["product_models", "product_images", "media"].map((table) => archive.tables.get(table))]);
  };
  const deadline = Date.now() + 240_000;
  let previous = await seen("espera_0.zip");
  for (let n = 1; Date.now() < deadline; n += 1) {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const now = await seen(`espera_${n}.zip`);
    if (now === previous) return;
    previous = now;
  }
  throw new Error("the start-up's background work did not settle within four minutes");
}

/**
 * The scenario on `main` (and `other`, a second process on the same database): load, backup through
 * the API, download; `wipe` removes rows and files; restore through the API; answers the archive.
 */
async function backUpUnderLoadThenRestore(
  main: () => TestServer,
  admin: PocketBase,
  options: { other?: TestServer; label: string; wipe: () => Promise<PocketBase> },
): Promise<{ archive: ArchiveContent; admin: PocketBase; afterBackup: string[] }> {
  await quiet(admin);
  const load = keepSendingQuoteRequests([main().url, ...(options.other ? [options.other.url] : [])], options.label);
  await load.until(4);
  const beforeBackup = load.accepted.map((sent) => sent.number);
  await admin.backups.create("respaldo_con_carga.zip");
  const backupDone = performance.now();
  // The site kept answering during the backup, and keeps doing it after.
  await load.until(load.accepted.length + 4);
  await load.stop();
  expect(load.failures).toEqual([]);
  const afterBackup = load.accepted.filter((sent) => sent.at > backupDone).map((sent) => sent.number);
  expect(afterBackup.length).toBeGreaterThan(0);

  const listed = (await admin.backups.getFullList()).find((backup) => backup.key === "respaldo_con_carga.zip");
  expect(listed).toMatchObject({ key: "respaldo_con_carga.zip", size: expect.any(Number), modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/) });
  const file = await download(admin, "respaldo_con_carga.zip");
  expect(fs.statSync(file).size).toBe(listed!.size);
  const archive = await readArchive(file);
  // A consistent snapshot: everything acknowledged before the backup began is in it, every row has its file.
  const inArchive = numbersIn(archive);
  for (const number of beforeBackup) expect(inArchive.has(number), number).toBe(true);
  for (const number of afterBackup) expect(inArchive.has(number), number).toBe(false);
  expectEveryRowHasItsFile(archive);

  const signedIn = await options.wipe();
  await signedIn.backups.restore("respaldo_con_carga.zip");
  const { sawMaintenance } = await restored(signedIn, main().url);
  void sawMaintenance;
  return { archive, admin: signedIn, afterBackup };
}

function expectSameRows(archive: ArchiveContent, tables: Map<string, string[]>): void {
  const differing = [...archive.tables.keys()].filter(
    (table) => !LIVE_TABLES.has(table) && !QUEUE_TABLES.has(table) && JSON.stringify(tables.get(table)) !== JSON.stringify(archive.tables.get(table)),
  );
  expect(differing).toEqual([]);
  const ids = (lines: string[] | undefined) => (lines ?? []).map((line) => (JSON.parse(line) as { id: string }).id).sort();
  for (const table of QUEUE_TABLES) expect(ids(tables.get(table)), table).toEqual(ids(archive.tables.get(table)));
  expect([...tables.keys()].sort()).toEqual([...archive.tables.keys()].sort());
}

describe("backups on PGlite (one process)", { timeout: 900_000 }, () => {
  it("a backup made under load restores through the API to the byte, and only superusers may use it", async () => {
    const pgliteDir = path.join(dataDir, "pglite");
    // adminUrl "": PGlite even when the suite runs on PostgreSQL (TEST_DATABASE_URL).
    let server = await start({ dataDir: pgliteDir, adminUrl: "", prepare: () => prepareSuperuserCallers("pglite") });
    const admin = await expectAuthorization(server.url, "pglite");

    const { archive } = await backUpUnderLoadThenRestore(() => server, admin, {
      label: "pglite",
      wipe: async () => {
        // PGlite belongs to the server's process: stop it, wipe rows and files, start it again.
        await server.stop();
        const database = await openDatabase({ dataDir: path.join(pgliteDir, "db") });
        try {
          // Rows nothing seeds again at start (a re-seeded table would be written by the start-up's background work, after the restore).
          await database.db.execute(sql.raw("truncate solicitudes cascade"));
        } finally {
          await database.close();
        }
        fs.rmSync(path.join(pgliteDir, "uploads"), { recursive: true, force: true });
        server = await start({ dataDir: pgliteDir, adminUrl: "" });
        // The session signed in before the backup: it is in the archive, so it outlives the restore.
        const again = sdkClient(server.url);
        again.authStore.save(admin.authStore.token, admin.authStore.record);
        return again;
      },
    });

    // The files on disk are the archive's, byte for byte.
    const uploads = path.join(pgliteDir, "uploads");
    const onDisk = new Map<string, string>();
    const walk = (relative: string) => {
      for (const entry of fs.readdirSync(path.join(uploads, relative), { withFileTypes: true })) {
        const child = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !(relative === "" && entry.name.startsWith("."))) walk(child);
        else if (entry.isFile()) onDisk.set(child, sha256(fs.readFileSync(path.join(uploads, child))));
      }
    };
    walk("");
    expect(onDisk).toEqual(archive.files);
    // The rows: read once the server is stopped (the database is its process's while it runs).
    await server.stop();
    const database = await openDatabase({ dataDir: path.join(pgliteDir, "db") });
    useDatabase(database);
    try {
      const tables = new Map<string, string[]>();
      for (const table of archive.tables.keys()) {
        const result = (await database.db.execute(sql.raw(tableRowsQuery(table)))) as unknown as { rows: { line: string }[] };
        tables.set(table, sortedLines(result.rows));
      }
      expectSameRows(archive, tables);
      expectEveryRowHasItsFile({ tables, files: onDisk });
    } finally {
      useDatabase(undefined);
      await database.close();
    }
  });
});

describe("backups on PostgreSQL (two processes)", { timeout: 900_000 }, () => {
  it("a backup made under load on two processes restores through one of them, and both serve the restored state", async () => {
    postgres = await usePostgresServer();
    const a = await start({ adminUrl: postgres.adminUrl, prepare: () => prepareSuperuserCallers("postgres") });
    const b = await start({ databaseUrl: a.databaseUrl });
    const admin = await expectAuthorization(a.url, "postgres");
    const onDatabase = <T>(query: string) => withAdminClient(a.databaseUrl!, async (client) => (await client.query(query)).rows as T[]);

    const { archive, afterBackup } = await backUpUnderLoadThenRestore(() => a, admin, {
      label: "postgres",
      other: b,
      wipe: async () => {
        await onDatabase("truncate solicitudes, stored_files cascade");
        return admin;
      },
    });

    const tables = new Map<string, string[]>();
    for (const table of archive.tables.keys()) tables.set(table, sortedLines(await onDatabase<{ line: string }>(tableRowsQuery(table))));
    expectSameRows(archive, tables);
    const stored = await onDatabase<{ path: string; sha: string }>(
      "select f.path, encode(sha256(coalesce(string_agg(c.data, ''::bytea order by c.n), ''::bytea)), 'hex') as sha from stored_files f left join file_chunks c on c.path = f.path group by f.path",
    );
    expect(new Map(stored.map((row) => [row.path, row.sha]))).toEqual(archive.files);
    expectEveryRowHasItsFile({ tables, files: archive.files });

    // B serves again once A's end of maintenance reaches it, and serves the restored state: the
    // solicitudes of the archive, not one that came after it.
    const deadline = Date.now() + 30_000;
    while ((await fetch(`${b.url}/api/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) })).status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const staffOnB = (await superuserCallers(b.url, "postgres")).admin;
    const list = await staffOnB.collection("solicitudes").getList(1, 1);
    expect(list.totalItems).toBe(archive.tables.get("solicitudes")!.length);
    expect((await sdkFailure(staffOnB.collection("solicitudes").getFirstListItem(`numero = "${afterBackup[0]}"`))).status).toBe(404);
    const row = JSON.parse(archive.tables.get("solicitud_files")![0]!) as { solicitud_id: string };
    const record = await staffOnB.collection("solicitudes").getOne(row.solicitud_id);
    const name = (record.archivos as string[])[0]!;
    const served = await fetch(staffOnB.files.getURL(record, name, { token: await staffOnB.files.getToken() }), { signal: AbortSignal.timeout(TIMEOUT_MS) });
    expect(served.status).toBe(200);
    const servedSha = sha256(Buffer.from(await served.arrayBuffer()));
    expect([...archive.files.values()]).toContain(servedSha);

    // Backups live in each process's DATA_DIR/backups: the archive made through A is uploaded to B
    // under a name of its own (a Forja archive only).
    const adminOnB = staffOnB;
    const bytes = fs.readFileSync(await download(admin, "respaldo_con_carga.zip"));
    await adminOnB.backups.upload({ file: new File([bytes], "subido_de_otro_sitio.zip", { type: "application/zip" }) });
    const uploaded = (await adminOnB.backups.getFullList()).find((backup) => backup.key === "subido_de_otro_sitio.zip");
    expect(uploaded?.size).toBe(bytes.length);
    const notZip = await sdkFailure(adminOnB.backups.upload({ file: new File([Buffer.from("no es un zip")], "otro.zip", { type: "application/zip" }) }));
    expect(notZip.status).toBe(400);
    expect(notZip.response.data).toEqual({ file: { code: "validation_invalid_mime_type", message: "El archivo no es un ZIP (application/zip)." } });
    expect((await adminOnB.backups.getFullList()).map((backup) => backup.key)).not.toContain("otro.zip");
  });
});
