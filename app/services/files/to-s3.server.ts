import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { DatabaseInUseError, openDatabase, useDatabase, type Database } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { s3ConfigFor } from "~/services/settings/s3-settings.server";
import { sha256AndSize } from "./checksum.server";
import { baseFileStore } from "./file-store.server";
import { S3Bucket, s3ErrorMessage } from "./s3-bucket.server";
import { S3_FILES_PREFIX } from "./s3-store.server";
import { newTmpUploadPath, uploadsTmpDir } from "./storage.server";
import { formatCount } from "~/lib/format";

// `npm run files:to-s3 [-- --borrar-originales]` (issue 17 §4, docs/decisions/0059): copies every
// file of the store used before S3 (disk or database) into the bucket, and checks each one read back
// (size and SHA-256) before counting it. Safe to run again: a file already in the bucket with the
// same content is left as it is. The originals stay unless asked (and only once their copy checked
// out), so the store before can still be gone back to.

export interface FilesToS3Outcome {
  /** Files in the store before S3. */
  found: number;
  copied: number;
  /** Already in the bucket with the same content (an earlier run). */
  alreadyThere: number;
  failed: { key: string; reason: string }[];
  /** Originals removed (only with `removeOriginals`). */
  removed: number;
}

/** The bucket's copy of `key`, hashed, or null when there is none. */
async function inBucket(bucket: S3Bucket, key: string): Promise<{ sha256: string; size: number } | null> {
  const found = await bucket.open(key);
  return found ? sha256AndSize(found.body) : null;
}

/** Copies the files of the store before S3 into the settings' `s3` bucket (which must be enabled). */
export async function copyFilesToS3(options: { removeOriginals?: boolean } = {}): Promise<FilesToS3Outcome> {
  const config = await s3ConfigFor("files");
  if (!config) throw new Error("El almacenamiento S3 de los archivos no está activado: actívelo en /admin/sistema (o con las variables S3_*) antes de copiar los archivos.");
  const bucket = new S3Bucket(config, S3_FILES_PREFIX);
  await bucket.check();
  const source = baseFileStore();
  const outcome: FilesToS3Outcome = { found: 0, copied: 0, alreadyThere: 0, failed: [], removed: 0 };
  const keys: string[] = [];
  for await (const key of source.keys()) keys.push(key);
  for (const key of keys) {
    const original = await source.open(key);
    // Removed meanwhile (the orphan sweep, a replaced photo): nothing to copy.
    if (!original) continue;
    outcome.found += 1;
    const tmp = newTmpUploadPath(uploadsTmpDir());
    try {
      // A local copy first: it is hashed as it is written and uploaded as it is read, never whole in memory.
      const hash = createHash("sha256");
      let size = 0;
      const counted = Readable.fromWeb(original.body as NodeReadableStream<Uint8Array>).map((chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.byteLength;
        return chunk;
      });
      await pipeline(counted, fs.createWriteStream(tmp));
      const expected = { sha256: hash.digest("hex"), size };
      const before = await inBucket(bucket, key);
      if (before && before.sha256 === expected.sha256 && before.size === expected.size) {
        outcome.alreadyThere += 1;
      } else {
        await bucket.putFile(key, tmp);
        const back = await inBucket(bucket, key);
        if (!back || back.size !== expected.size || back.sha256 !== expected.sha256) {
          outcome.failed.push({ key, reason: "la copia leída de vuelta no coincide con el original" });
          continue;
        }
        outcome.copied += 1;
      }
      if (options.removeOriginals) {
        await source.remove([key]);
        outcome.removed += 1;
      }
    } catch (error) {
      outcome.failed.push({ key, reason: s3ErrorMessage(error) });
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }
  logger.info({ ...outcome, failed: outcome.failed.length, bucket: config.bucket }, "stored files copied to S3");
  return outcome;
}

/** The outcome as the terminal shows it (es-MX). */
export function describeFilesToS3(outcome: FilesToS3Outcome, bucket: string): string {
  const lines = [
    `Archivos encontrados: ${outcome.found}.`,
    `Copiados a s3://${bucket}/${S3_FILES_PREFIX} y verificados (tamaño y SHA-256): ${outcome.copied}.`,
    `Ya estaban en el bucket con el mismo contenido: ${outcome.alreadyThere}.`,
  ];
  if (outcome.removed) lines.push(`Originales borrados tras verificar su copia: ${outcome.removed}.`);
  if (outcome.failed.length) {
    lines.push(`No se pudieron copiar: ${formatCount(outcome.failed.length, "archivo", "archivos")} (se conservan donde estaban; vuelva a ejecutar el comando):`);
    for (const failure of outcome.failed.slice(0, 20)) lines.push(`  ${failure.key}: ${failure.reason}`);
    if (outcome.failed.length > 20) lines.push(`  … y ${outcome.failed.length - 20} más.`);
  } else if (outcome.found && !outcome.removed) {
    lines.push("Los originales se conservan; para borrarlos después de verificar cada copia, use npm run files:to-s3 -- --borrar-originales.");
  }
  return lines.join("\n");
}

/** `npm run files:to-s3`: opens the database (so the settings can be read), copies, and answers the report. */
export async function runFilesToS3Command(args: readonly string[] = []): Promise<{ message: string; ok: boolean }> {
  const unknown = args.filter((arg) => arg !== "--borrar-originales");
  if (unknown.length) throw new Error(`No conozco la opción ${unknown.join(" ")}. Uso: npm run files:to-s3 [-- --borrar-originales]`);
  const env = getEnv();
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : path.join(env.dataDir, "db") });
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new Error(`${error.message} Con PGlite, detenga el servidor antes de usar este comando.`);
    throw error;
  }
  useDatabase(database);
  try {
    await database.migrate();
    const outcome = await copyFilesToS3({ removeOriginals: args.includes("--borrar-originales") });
    const config = (await s3ConfigFor("files"))!;
    return { message: describeFilesToS3(outcome, config.bucket), ok: outcome.failed.length === 0 };
  } finally {
    useDatabase(undefined);
    await database.close();
  }
}
