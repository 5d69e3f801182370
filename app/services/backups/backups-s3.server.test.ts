import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Backups kept in an S3-compatible bucket (docs/decisions/0060), on the test database and a real S3
// server on loopback whose bucket the environment's S3_* names: scheduled backups go to the bucket
// and their retention removes the old ones there (never one made by hand), an uploaded archive is
// stored there, names are checked as on disk, and nothing is left in DATA_DIR/backups.

const { dataDir, s3 } = await vi.hoisted(async () => {
  const server = await (await import("../../../tests/support/s3-server")).startS3Server();
  const dir = (await import("../../../tests/support/test-env")).isolateTestEnv("backups-s3", { set: server.env() });
  return { dataDir: dir, s3: server };
});

import { closeTestDatabase, createTestDatabase } from "../../../tests/support/test-database";
import type { Database } from "~/db/client.server";
import { S3Bucket } from "~/services/files/s3-bucket.server";
import { createBackup, listBackups } from "./backups.server";
import { backupDestination, backupsDir } from "./destination.server";
import { scheduledBackupJob } from "./scheduled.server";
import { storeUploadedBackup } from "./upload.server";

let database: Database;
const bucket = new S3Bucket(s3.config(), "backups/");

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await closeTestDatabase(database);
  await s3.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function keysInBucket(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of bucket.list()) keys.push(object.key);
  return keys.sort();
}

const localBackups = () => (fs.existsSync(backupsDir()) ? fs.readdirSync(backupsDir()) : []);

describe("backups in S3", () => {
  it("go to the bucket, and scheduled ones keep only the newest there", async () => {
    expect((await backupDestination()).kind).toBe("s3");
    await createBackup("hecho_a_mano.zip");
    const job = scheduledBackupJob({ schedule: async () => ({ expression: "0 9 * * *", keep: 2 }) });
    const made: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      // A second apart: S3 dates objects to the second, and the newest are kept by date.
      if (n) await new Promise((resolve) => setTimeout(resolve, 1_100));
      const outcome = (await job.run(new AbortController().signal)) as { made: string; removed: string[] };
      made.push(outcome.made);
      expect(outcome.removed).toEqual(n < 2 ? [] : [made[0]]);
    }
    expect(await keysInBucket()).toEqual(["hecho_a_mano.zip", made[1]!, made[2]!].sort());
    expect((await listBackups()).map((backup) => backup.key)).toEqual([made[2], made[1], "hecho_a_mano.zip"]);
    expect(localBackups()).toEqual([]);
  });

  it("stores an uploaded archive in the bucket, refuses a taken name and ignores what is not a backup", async () => {
    const downloaded = path.join(dataDir, "descargado.zip");
    fs.mkdirSync(dataDir, { recursive: true });
    expect(await bucket.download("hecho_a_mano.zip", downloaded)).toBe(true);
    expect(await storeUploadedBackup(downloaded, "subido.zip")).toEqual({ ok: true });
    expect(fs.existsSync(downloaded)).toBe(false);
    expect((await bucket.readBytes("subido.zip", 1 << 30))!.equals((await bucket.readBytes("hecho_a_mano.zip", 1 << 30))!)).toBe(true);

    const again = path.join(dataDir, "otra-vez.zip");
    expect(await bucket.download("subido.zip", again)).toBe(true);
    expect(await storeUploadedBackup(again, "subido.zip")).toEqual({ ok: false, problem: "Ya existe un respaldo con ese nombre." });

    const destination = await backupDestination();
    const tmp = path.join(dataDir, "copia.zip");
    fs.copyFileSync(again, tmp);
    await expect(destination.publish(tmp, "subido.zip")).rejects.toThrow("Ya existe un respaldo llamado subido.zip");
    expect(fs.existsSync(tmp)).toBe(false);

    // Objects of other names under the prefix are not backups: never listed, opened or found.
    await bucket.putBytes("notas.txt", Buffer.from("no es un respaldo"));
    await bucket.putBytes("carpeta/anidado.zip", Buffer.from("tampoco"));
    const keys = (await listBackups()).map((backup) => backup.key);
    expect(keys).toContain("subido.zip");
    expect(keys).not.toContain("notas.txt");
    expect(keys).not.toContain("carpeta/anidado.zip");
    expect(await destination.exists("carpeta/anidado.zip")).toBe(false);
    expect(await destination.open("../files/x.zip")).toBeNull();
    expect(await destination.localCopy("carpeta/anidado.zip")).toBeNull();
    expect(localBackups()).toEqual([]);
  });
});
