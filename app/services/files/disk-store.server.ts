import fs from "node:fs";
import path from "node:path";
import type { FileStore, StoredFile } from "./file-store.server";
import { deferRemovalsWhileHeld } from "./removal-hold.server";
import { absoluteStoragePath, moveIntoStorage, removeQuietly, uploadsDir, writeIntoStorage } from "./storage.server";

// The file store of a single machine (PGlite): files under DATA_DIR/uploads, named by their key.
// A file written for a row that then fails to commit is removed by the caller (FileStore.remove).

const READ_CHUNK_BYTES = 64 * 1024;

async function open(key: string): Promise<StoredFile | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(absoluteStoragePath(key), "r");
  } catch {
    return null;
  }
  let stat: fs.Stats;
  try {
    stat = await handle.stat();
  } catch {
    await handle.close().catch(() => {});
    return null;
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buffer = new Uint8Array(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) {
          await close();
          controller.close();
        } else {
          controller.enqueue(buffer.subarray(0, bytesRead));
        }
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    cancel: close,
  });
  return { size: stat.size, storedAt: stat.mtime, body };
}

async function* keys(options: { before?: Date } = {}): AsyncGenerator<string> {
  const root = uploadsDir();
  const before = options.before?.getTime();
  async function* walk(relative: string): AsyncGenerator<string> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // Uploads still being received live in .tmp (cleanTmpUploads looks after them).
        if (!relative && entry.name.startsWith(".")) continue;
        yield* walk(child);
      } else if (entry.isFile()) {
        if (before !== undefined) {
          const stat = await fs.promises.stat(path.join(root, child)).catch(() => null);
          if (!stat || stat.mtimeMs >= before) continue;
        }
        yield child;
      }
    }
  }
  yield* walk("");
}

export const diskFileStore: FileStore = {
  kind: "disk",
  putFile: (key, localPath) => moveIntoStorage(localPath, key),
  putBytes: (key, bytes) => writeIntoStorage(key, bytes),
  open,
  async readBytes(key, maxBytes) {
    try {
      const target = absoluteStoragePath(key);
      const stat = await fs.promises.stat(target);
      if (!stat.isFile() || stat.size > maxBytes) return null;
      return await fs.promises.readFile(target);
    } catch {
      return null;
    }
  },
  async remove(list) {
    // A backup is copying the files: these go when it ends (docs/decisions/0055).
    if (deferRemovalsWhileHeld(list)) return;
    await removeQuietly(
      list.flatMap((key) => {
        try {
          return [absoluteStoragePath(key)];
        } catch {
          return [];
        }
      }),
    );
  },
  keys,
};
