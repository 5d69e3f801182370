import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";

// PGlite on Node starts PostgreSQL with fsync off ("-F"), and the file system it runs on (Emscripten's
// NODEFS over the data directory) answers fsync without asking the disk, and fdatasync without even
// that. A committed transaction was therefore only in the operating system's cache: a power cut could
// lose a request already acknowledged. Here PostgreSQL runs with fsync on, syncs its WAL with fsync()
// (the one call that reaches the file system's own hook), and that hook does the real fsync(2) on the
// file's descriptor, or on the directory (PostgreSQL syncs directories after creating and renaming
// files). The commit then returns only once its WAL record is on disk. docs/decisions/0044.

/** PGlite's start parameters with fsync on and the WAL synced with fsync(). */
export function durableStartParams(): string[] {
  const defaults = PGlite.defaultStartParams as string[];
  return [...defaults.filter((param) => param !== "-F"), "-c", "fsync=on", "-c", "wal_sync_method=fsync"];
}

interface NodeFsStream {
  nfd?: number;
  node: unknown;
}

interface NodeFs {
  realPath(node: unknown): string;
  stream_ops: { fsync?: (stream: NodeFsStream) => number | void };
}

function syncPath(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Gives PGlite's file system a real fsync, then checkpoints so that what was written before (the new
 * cluster, the recovery at start) is on disk too. Fails loudly if PGlite's internals changed: silently
 * running without durability is the one outcome this must not allow.
 */
export async function makePgliteDurable(client: PGlite): Promise<void> {
  const nodeFs = (client as unknown as { mod?: { NODEFS?: NodeFs } }).mod?.NODEFS;
  if (!nodeFs?.stream_ops || typeof nodeFs.realPath !== "function") {
    throw new Error("PGlite's NODEFS is not reachable: its fsync cannot be made real (check the PGlite version).");
  }
  nodeFs.stream_ops.fsync = (stream) => {
    if (typeof stream.nfd === "number") fs.fsyncSync(stream.nfd);
    else syncPath(nodeFs.realPath(stream.node));
    return 0;
  };
  await client.exec("CHECKPOINT");
}
