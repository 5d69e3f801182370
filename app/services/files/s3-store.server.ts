import fs from "node:fs";
import { logger } from "~/lib/logger.server";
import type { FileStore, StoredFile } from "./file-store.server";
import { deferRemovalsWhileHeld, removalsHeldEverywhere } from "./removal-hold.server";
import { S3Bucket, type S3Config } from "./s3-bucket.server";

// Stored files in an S3-compatible bucket, under "files/" (issue 17 §4, docs/decisions/0059). Chosen
// by getFileStore() while the settings' `s3` is enabled. Durability: a PUT answers only once the
// service has stored the object durably, and it has answered before the owning row commits; a row
// that then fails to commit leaves an object no row names, removed by the caller or, after a crash,
// by the orphan sweep. Switching to S3 moves nothing by itself: a key not in the bucket is read from
// the store used before (disk or database), so nothing disappears until `npm run files:to-s3`
// copies it over; removals go to both.

export const S3_FILES_PREFIX = "files/";

export function s3FileStore(config: S3Config, previous: FileStore): FileStore {
  const bucket = new S3Bucket(config, S3_FILES_PREFIX);
  return {
    kind: "s3",
    async putFile(key, localPath) {
      await bucket.putFile(key, localPath);
      await fs.promises.rm(localPath, { force: true });
    },
    async putBytes(key, bytes) {
      await bucket.putBytes(key, bytes);
    },
    async open(key): Promise<StoredFile | null> {
      const found = await bucket.open(key);
      if (found) return { size: found.size, storedAt: found.modified, body: found.body };
      return previous.open(key);
    },
    async readBytes(key, maxBytes) {
      const info = await bucket.head(key);
      if (!info) return previous.readBytes(key, maxBytes);
      return bucket.readBytes(key, maxBytes);
    },
    async remove(list) {
      if (!list.length) return;
      // A backup is copying the files: these go when it ends (docs/decisions/0055).
      if (deferRemovalsWhileHeld(list)) return;
      // A backup in another process: left for the orphan sweep, which finds them unreferenced.
      if (await removalsHeldEverywhere()) {
        logger.info({ files: list.length }, "stored-file removals left to the orphan sweep: a backup is copying the bucket");
        return;
      }
      try {
        await bucket.remove(list);
      } catch (error) {
        logger.warn({ err: error, files: list.length }, "could not remove stored files from S3");
      }
      await previous.remove(list);
    },
    async *keys(options = {}) {
      const before = options.before?.getTime();
      const seen = new Set<string>();
      for await (const item of bucket.list()) {
        seen.add(item.key);
        if (before === undefined || item.modified.getTime() < before) yield item.key;
      }
      // Files not copied over yet are still stored files (the orphan sweep and backups see them).
      for await (const key of previous.keys(options)) if (!seen.has(key)) yield key;
    },
  };
}
