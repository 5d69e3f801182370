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
import { downloadBackup, expectEveryRowHasItsFile, expectSameRows, keepSendingQuoteRequests, quiet, restored, TIMEOUT_MS } from "../../../tests/support/backup-journeys";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";
import { expectSuperusersOnly, prepareSuperuserCallers, superuserCallers } from "../../../tests/support/superuser-clients";
import { withAdminClient } from "../../../tests/support/test-database";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { usePostgresServer, type PostgresServer } from "../../../tests/support/throwaway-postgres";

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
 * The scenario on `main` (and `other`, a second process on the same database): load, backup through
 * the API, download; `wipe` removes rows and files; restore through the API; answers the archive.
 */
async function backUpUnderLoadThenRestore(
  main: () => TestServer,
  admin: PocketBase,
  options: { other?: TestServer; label: string; wipe: () => Promise<PocketBase> },
): Promise<{ archive: ArchiveContent; admin: PocketBase; afterBackup: string[] }> {
  await quiet(admin, dataDir);
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
  const file = await downloadBackup(admin, "respaldo_con_carga.zip", dataDir);
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
    const bytes = fs.readFileSync(await downloadBackup(admin, "respaldo_con_carga.zip", dataDir));
    await adminOnB.backups.upload({ file: new File([bytes], "subido_de_otro_sitio.zip", { type: "application/zip" }) });
    const uploaded = (await adminOnB.backups.getFullList()).find((backup) => backup.key === "subido_de_otro_sitio.zip");
    expect(uploaded?.size).toBe(bytes.length);
    const notZip = await sdkFailure(adminOnB.backups.upload({ file: new File([Buffer.from("no es un zip")], "otro.zip", { type: "application/zip" }) }));
    expect(notZip.status).toBe(400);
    expect(notZip.response.data).toEqual({ file: { code: "validation_invalid_mime_type", message: "El archivo no es un ZIP (application/zip)." } });
    expect((await adminOnB.backups.getFullList()).map((backup) => backup.key)).not.toContain("otro.zip");
  });
});
