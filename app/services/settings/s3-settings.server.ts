import { randomBytes } from "node:crypto";
import { S3Bucket, s3ErrorMessage, type S3Config } from "~/services/files/s3-bucket.server";
import { getSettings } from "./settings.server";

// Which S3-compatible bucket stored files and backups use (issue 17 §4, docs/decisions/0059): the
// settings' `s3` and `backups.s3` (the S3_* environment variables fix both), read at the time of
// use, so a PATCH takes effect in every process at once.

/** The connection for stored files or backups, or null when that one is not kept in S3. */
export async function s3ConfigFor(target: "files" | "backups"): Promise<S3Config | null> {
  const settings = await getSettings();
  const config = target === "files" ? settings.s3 : settings.backups.s3;
  return config.enabled ? { ...config } : null;
}

const failed = (message: string) => ({ ok: false as const, message });

const TARGET_NAMES = { files: "de los archivos", backups: "de los respaldos" } as const;

/**
 * PocketBase's S3 test (POST /api/settings/test/s3): with the settings in effect now, writes a small
 * object at the bucket's root, reads it back and removes it. Fails with the storage server's reason.
 */
export async function testS3Connection(target: "files" | "backups"): Promise<{ ok: true } | { ok: false; message: string }> {
  const config = await s3ConfigFor(target);
  if (!config) return failed(`El almacenamiento S3 ${TARGET_NAMES[target]} no está activado: actívelo y guarde los ajustes antes de probarlo.`);
  const bucket = new S3Bucket(config, `forja_prueba_ajustes_${randomBytes(5).toString("hex")}/`);
  const content = Buffer.from(`Prueba de conexión de Forja, ${new Date().toISOString()}`);
  let step = "escribir un archivo de prueba";
  try {
    await bucket.putBytes("prueba.txt", content, "text/plain");
    step = "leer el archivo de prueba";
    const back = await bucket.readBytes("prueba.txt", content.byteLength);
    if (!back || !back.equals(content)) return failed(`No pudimos usar el almacenamiento S3 ${TARGET_NAMES[target]}: el archivo de prueba se leyó distinto de como se escribió.`);
    step = "borrar el archivo de prueba";
    await bucket.remove(["prueba.txt"]);
    return { ok: true };
  } catch (error) {
    return failed(`No pudimos ${step} en el almacenamiento S3 ${TARGET_NAMES[target]}. El servidor de almacenamiento respondió: ${s3ErrorMessage(error)}`);
  }
}
