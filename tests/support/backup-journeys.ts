import fs from "node:fs";
import path from "node:path";
import type PocketBase from "pocketbase";
import { expect } from "vitest";
import { MEDIA_SEED } from "~/features/site/media/media-seed.server";
import { readArchive, type ArchiveContent } from "./backup-archives";
import { pdfFile } from "./minimal-files";
import { agedFormToken, validQuoteFields } from "./solicitud-requests";

// The steps of the backup journeys on real servers (app/services/backups/*.http.test.ts,
// docs/decisions/0055 and 0060): quote requests with attachments under load, a backup downloaded
// with a file token, the wait for a restore started through the API, and the checks of a restored
// state against the archive.

export const TIMEOUT_MS = 15_000;
/** Written after the restore by the requests that check it (each request is logged): not part of the restored state. */
export const LIVE_TABLES = new Set(["logs"]);
/**
 * The mail queue: the worker goes on delivering what the restored queue holds (a quote request's
 * emails pending at the backup are sent after the restore), so its rows must be the archive's,
 * their delivery state may have moved on.
 */
export const QUEUE_TABLES = new Set(["outbox"]);
/**
 * The scheduler's record of each job's last run: the once-a-minute jobs go on running after the
 * restore and record each run in their row, and a job whose first run comes after the backup adds
 * its row. So a row's run may have moved on, but none of the archive's jobs may be missing.
 */
export const SCHEDULER_TABLES = new Set(["cron_runs"]);

export interface Sent {
  number: string;
  /** When the server answered (performance.now()). */
  at: number;
}

/** Quote requests with a PDF attachment, two at a time, to `urls` in turn until stopped; what was accepted and what failed. */
export function keepSendingQuoteRequests(urls: string[], label: string) {
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
      expect(accepted.length, `failures: ${failures.slice(0, 3).join(" | ")}`).toBeGreaterThanOrEqual(count);
    },
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(lanes);
    },
  };
}

/** Downloads backup `key` with a file token, as the admin panel's link does, into `dataDir`; the archive's local path. */
export async function downloadBackup(admin: PocketBase, key: string, dataDir: string): Promise<string> {
  const token = await admin.files.getToken();
  const response = await fetch(admin.backups.getDownloadURL(token, key), { signal: AbortSignal.timeout(60_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename=${key}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(fs.mkdtempSync(path.join(dataDir, "descarga-")), key);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** Waits for the restore started by the 204 to end: the site answers again and the replaced state is listed as a backup. */
export async function restored(admin: PocketBase, url: string): Promise<{ sawMaintenance: boolean }> {
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

/**
 * The archive's attachment rows each have their file in the archive, with the row's SHA-256. A row
 * the geometry job has not reached yet has none (it takes it from the stored bytes, 0080): its file
 * must be there all the same.
 */
export function expectEveryRowHasItsFile(content: { tables: Map<string, string[]>; files: Map<string, string> }): void {
  const rows = (content.tables.get("solicitud_files") ?? []).map((line) => JSON.parse(line) as { storage_path: string; sha256: string | null; geometry_status: string });
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(content.files.get(row.storage_path), row.storage_path).toEqual(expect.any(String));
    if (row.sha256 === null) expect(row.geometry_status, `${row.storage_path} has no sha256`).toMatch(/^(pending|computing)$/);
    else expect(content.files.get(row.storage_path), row.storage_path).toBe(row.sha256);
  }
}

/**
 * Waits until the start-up's background work (the catalogue's CAD models, the media library's seed)
 * is done and has stopped writing: the media seed's claim is in the database, no CAD model is
 * pending or being built, and two backups a few seconds apart hold the same files and the same rows
 * of the tables that work writes. (Two equal backups alone were not enough: on a loaded machine one
 * model or one picture can take longer than the interval.) A backup taken while that work runs
 * would be restored into a server that resumes it, writing after the restore what the archive
 * cannot hold.
 */
/** What the server holds now, seen through a backup made, downloaded and deleted again. */
async function snapshot(admin: PocketBase, name: string, dataDir: string): Promise<ArchiveContent> {
  await admin.backups.create(name);
  const archive = await readArchive(await downloadBackup(admin, name, dataDir));
  await admin.backups.delete(name);
  return archive;
}

export async function quiet(admin: PocketBase, dataDir: string): Promise<void> {
  const seen = async (name: string) => {
    const archive = await snapshot(admin, name, dataDir);
    const seeds = (archive.tables.get("content_seeds") ?? []).map((line) => (JSON.parse(line) as { collection: string }).collection);
    const models = (archive.tables.get("product_models") ?? []).map((line) => (JSON.parse(line) as { status: string }).status);
    return {
      done: seeds.includes(MEDIA_SEED) && models.every((status) => status === "ok" || status === "failed"),
      state: JSON.stringify([[...archive.files.keys()].sort(), ...["product_models", "product_images", "media"].map((table) => archive.tables.get(table))]),
    };
  };
  const deadline = Date.now() + 240_000;
  let previous = await seen("espera_0.zip");
  for (let n = 1; Date.now() < deadline; n += 1) {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const now = await seen(`espera_${n}.zip`);
    if (now.done && previous.done && now.state === previous.state) return;
    previous = now;
  }
  throw new Error("the start-up's background work did not settle within four minutes");
}

/**
 * Waits until no attachment waits for the job that measures it (its row's geometry_status is
 * "pending" or "computing"): that job writes the rows, so a backup made before it ends holds rows
 * the job rewrites once they are restored.
 */
export async function attachmentsMeasured(admin: PocketBase, dataDir: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (let n = 0; Date.now() < deadline; n += 1) {
    const archive = await snapshot(admin, `medidos_${n}.zip`, dataDir);
    const statuses = (archive.tables.get("solicitud_files") ?? []).map((line) => (JSON.parse(line) as { geometry_status: string }).geometry_status);
    if (!statuses.some((status) => status === "pending" || status === "computing")) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error("the attachments were not measured within two minutes");
}

export function expectSameRows(archive: ArchiveContent, tables: Map<string, string[]>): void {
  const differing = [...archive.tables.keys()].filter(
    (table) =>
      !LIVE_TABLES.has(table) && !QUEUE_TABLES.has(table) && !SCHEDULER_TABLES.has(table) && JSON.stringify(tables.get(table)) !== JSON.stringify(archive.tables.get(table)),
  );
  expect(differing).toEqual([]);
  const ids = (lines: string[] | undefined) => (lines ?? []).map((line) => (JSON.parse(line) as { id: string }).id).sort();
  for (const table of QUEUE_TABLES) expect(ids(tables.get(table)), table).toEqual(ids(archive.tables.get(table)));
  const jobs = (lines: string[] | undefined) => (lines ?? []).map((line) => (JSON.parse(line) as { job_id: string }).job_id);
  for (const table of SCHEDULER_TABLES) {
    const archived = jobs(archive.tables.get(table));
    expect(archived.length, `${table} in the archive`).toBeGreaterThan(0);
    expect(jobs(tables.get(table)), table).toEqual(expect.arrayContaining(archived));
  }
  expect([...tables.keys()].sort()).toEqual([...archive.tables.keys()].sort());
}
