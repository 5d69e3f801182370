// Entry of the upload worker thread (docs/decisions/0006, 0032): the per-byte work of a multipart
// upload — finding the parts (multipart-parser.ts), a checksum of each file (sha256, or CRC-32 when
// the limits ask for it: docs/decisions/0080), keeping its first and last 64 KiB
// for the content check and writing it to its temporary file — runs here, off the request's thread.
// The request's thread only reads the body and passes each chunk on (multipart.server.ts), and says
// what a failure means in Spanish. Node runs this file as it is in tests and development (types
// stripped); the build bundles it to build/upload-worker.mjs (scripts/build-geometry-worker.mjs).
// Imports are Node's and this folder's parser only: nothing here may need the app's bundler.
import { createHash } from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { type Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { parentPort } from "node:worker_threads";
import { MultipartParser } from "./multipart-parser.ts";
import type { UploadLimits } from "./multipart.server";

/** A temporary file written through the page cache is flushed to the disk every this many bytes (see TemporaryFile). */
export const FLUSH_EVERY_BYTES = 1024 * 1024;

/**
 * Direct writes (O_DIRECT) go from the memory to the disk in whole blocks of this size, at offsets
 * that are multiples of it, from memory aligned to it; 4 KiB covers every disk's logical block.
 */
export const DIRECT_BLOCK = 4096;
/** Each file written directly has a staging area of this size in the thread's pool (see StagingPool). */
export const STAGE_BYTES = 1024 * 1024;
/** Files written directly at once; one more is written through the page cache. */
export const STAGE_SLOTS = 32;
/** A direct file writes what it has staged once this much waits (smaller writes each wait for the disk). */
const DIRECT_WRITE_MIN = 256 * 1024;

/**
 * The staging areas of the files written directly: one WebAssembly memory, because its buffer is
 * aligned to the system's pages (a Buffer's address is whatever the allocator gives), cut into
 * STAGE_SLOTS areas of STAGE_BYTES, made the first time a file is written directly. A file takes
 * an area for its whole life and gives it back once its last write is over.
 */
class StagingPool {
  private memory: WebAssembly.Memory | null = null;
  private readonly free: number[] = [];

  take(): { slot: number; area: Buffer } | null {
    if (!this.memory) {
      const pages = (STAGE_SLOTS * STAGE_BYTES) / 65536;
      this.memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
      for (let slot = STAGE_SLOTS - 1; slot >= 0; slot--) this.free.push(slot);
    }
    const slot = this.free.pop();
    if (slot === undefined) return null;
    return { slot, area: Buffer.from(this.memory.buffer, slot * STAGE_BYTES, STAGE_BYTES) };
  }

  give(slot: number): void {
    this.free.push(slot);
  }

  /** Areas taken and not given back (for tests). */
  get inUse(): number {
    return this.memory ? STAGE_SLOTS - this.free.length : 0;
  }
}

export const stagingPool = new StagingPool();

/**
 * Whether `dir`'s file system takes direct writes, found once per directory: a probe file opened
 * with O_DIRECT takes one aligned block, then is removed. Where it does not (tmpfs on
 * older kernels, systems without O_DIRECT) files there go through the page cache.
 */
const directWrites = new Map<string, Promise<boolean>>();

export function takesDirectWrites(dir: string): Promise<boolean> {
  let known = directWrites.get(dir);
  if (!known) {
    const probing = probeDirectWrites(dir);
    known = probing.then((answer) => answer === "yes");
    directWrites.set(dir, known);
    // Only the file system's refusal is kept: a probe that failed for another reason (the directory
    // missing, no descriptor free) is tried again by the next file.
    void probing.then((answer) => answer === "unknown" && directWrites.get(dir) === known && directWrites.delete(dir));
  }
  return known;
}

async function probeDirectWrites(dir: string): Promise<"yes" | "no" | "unknown"> {
  const O_DIRECT = fs.constants.O_DIRECT;
  if (!O_DIRECT) return "no";
  // A block of its own, aligned as the staging areas are (a WebAssembly memory's page).
  const block = Buffer.from(new WebAssembly.Memory({ initial: 1, maximum: 1 }).buffer, 0, DIRECT_BLOCK);
  const probe = path.join(dir, `.directo-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(probe, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_DIRECT, 0o600);
    const { bytesWritten } = await handle.write(block, 0, DIRECT_BLOCK, 0);
    return bytesWritten === DIRECT_BLOCK ? "yes" : "no";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EINVAL" ? "no" : "unknown";
  } finally {
    await handle?.close().catch(() => {});
    await fs.promises.rm(probe, { force: true }).catch(() => {});
  }
}

/**
 * Writes `buffers` at the file's current end, again from where a short write stopped, unless
 * `stopped()` says the file is being closed.
 */
function writeAll(fd: number, buffers: Buffer[], stopped: () => boolean, callback: (error: NodeJS.ErrnoException | null, written: number) => void, done = 0): void {
  fs.writev(fd, buffers, (error, written) => {
    if (error) return callback(error, done);
    if (stopped()) return callback(null, done + written);
    let rest = written;
    const left: Buffer[] = [];
    for (const buffer of buffers) {
      if (rest >= buffer.length) rest -= buffer.length;
      else {
        left.push(buffer.subarray(rest));
        rest = 0;
      }
    }
    if (left.length === 0) return callback(null, done + written);
    // A write that moved nothing would loop for ever: the disk refuses (ENOSPC comes as an error).
    if (written === 0) return callback(Object.assign(new Error("the temporary file took no bytes"), { code: "EIO" }), done);
    writeAll(fd, left, stopped, callback, done + written);
  });
}

/** A plain descriptor (not a FileHandle: the writer closes it itself, after any write under way). */
function openDescriptor(file: string, flags: fs.OpenMode, mode?: fs.Mode): Promise<number> {
  return new Promise((resolve, reject) => fs.open(file, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd))));
}

/** Writes `length` bytes of `area` at `position` directly, again from where a short write stopped (whole blocks only). */
function writeDirect(fd: number, area: Buffer, length: number, position: number, stopped: () => boolean, callback: (error: NodeJS.ErrnoException | null) => void, done = 0): void {
  fs.write(fd, area, done, length - done, position + done, (error, written) => {
    if (error) return callback(error);
    if (stopped() || done + written === length) return callback(null);
    // A direct write moves whole blocks or fails; anything else would misalign the next one.
    if (written === 0 || written % DIRECT_BLOCK !== 0) return callback(Object.assign(new Error("the temporary file took a partial block"), { code: "EIO" }));
    writeDirect(fd, area, length, position, stopped, callback, done + written);
  });
}

/**
 * A temporary upload file, created new ("wx"). Two ways of writing it (docs/decisions/0074):
 *
 * - **Directly** (O_DIRECT), where the file system takes it and a staging area is free: the chunks
 *   are copied into the file's staging area and go from there to the disk in whole blocks, a MiB at
 *   a time, without passing through the page cache. Every byte written that way is on the disk
 *   while the rest of the body arrives, and the page cache is not filled with uploads nobody reads
 *   soon: taking a fresh page for each 4 KiB of every upload cost more CPU than the rest of the
 *   write (on a virtual machine, each new page is a fault the host serves). The last partial block
 *   is written padded with zeros and the file cut back to its size.
 * - **Through the page cache** otherwise: chunks that arrive while a write is under way go out
 *   together in one writev, and every FLUSH_EVERY_BYTES the bytes written are flushed to the disk
 *   (fdatasync) while the rest of the body is still arriving.
 *
 * Either way storing the file syncs it again (storage.server.ts, moveIntoStorage), which then has
 * little or nothing left to write instead of all of it at once, after the last byte, when every
 * upload of a burst asks for it together.
 */
export class TemporaryFile extends Writable {
  private readonly file: string;
  private readonly allowDirect: boolean;
  private fd: number | null = null;
  private unflushed = 0;
  /** A write or a flush is under way on `fd`. */
  private busy = false;
  /** The close that waits for it (see _destroy). */
  private afterBusy: (() => void) | null = null;
  /** Direct writing: the staging area, the bytes waiting in it, where they go, the bytes taken. */
  private staged: { slot: number; area: Buffer } | null = null;
  private direct = false;
  private stagedBytes = 0;
  private position = 0;
  private size = 0;

  /** `direct: false` writes through the page cache even where direct writes are possible. */
  constructor(file: string, options: { direct?: boolean } = {}) {
    super({ highWaterMark: FLUSH_EVERY_BYTES });
    this.file = file;
    this.allowDirect = options.direct ?? true;
  }

  /** How this file is written: "direct" (O_DIRECT) or "cached" (through the page cache). */
  get mode(): "direct" | "cached" {
    return this.direct ? "direct" : "cached";
  }

  override _construct(callback: (error?: Error | null) => void): void {
    void this.open().then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  private async open(): Promise<void> {
    const direct = this.allowDirect && (await takesDirectWrites(path.dirname(this.file)));
    const staged = direct ? stagingPool.take() : null;
    if (staged) {
      try {
        const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_DIRECT;
        // The same permissions as a file opened "wx" (0o666 less the umask), whichever way it is written.
        this.fd = await openDescriptor(this.file, flags, 0o666);
        this.staged = staged;
        this.direct = true;
        return;
      } catch (error) {
        stagingPool.give(staged.slot);
        throw error;
      }
    }
    this.fd = await openDescriptor(this.file, "wx");
  }

  /** Marks a write under way; the function returned ends it, answers `callback`, then runs a close that waited. */
  private startWork(callback: (error?: Error | null) => void): (error?: Error | null) => void {
    this.busy = true;
    return (error) => {
      this.busy = false;
      callback(error);
      const close = this.afterBusy;
      this.afterBusy = null;
      close?.();
    };
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    const done = this.startWork(callback);
    const buffers = chunks.map(({ chunk }) => chunk);
    if (this.staged) return void this.stageAll(buffers).then(() => done(), done);
    const fd = this.fd!;
    writeAll(
      fd,
      buffers,
      () => this.destroyed,
      (error, written) => {
        if (error || this.destroyed) return done(error);
        this.unflushed += written;
        if (this.unflushed < FLUSH_EVERY_BYTES) return done();
        this.unflushed = 0;
        fs.fdatasync(fd, (syncError) => done(syncError));
      },
    );
  }

  /** Copies the chunks into the staging area, writing it out each time it fills, and what waits once it passes DIRECT_WRITE_MIN. */
  private async stageAll(chunks: Buffer[]): Promise<void> {
    const { area } = this.staged!;
    for (const chunk of chunks) {
      this.size += chunk.length;
      for (let at = 0; at < chunk.length; ) {
        const taken = chunk.copy(area, this.stagedBytes, at);
        this.stagedBytes += taken;
        at += taken;
        if (this.stagedBytes === STAGE_BYTES) await this.writeStaged(STAGE_BYTES);
        if (this.destroyed) return;
      }
    }
    if (this.stagedBytes >= DIRECT_WRITE_MIN) await this.writeStaged(this.stagedBytes - (this.stagedBytes % DIRECT_BLOCK));
  }

  /** Writes the first `length` (whole blocks) staged bytes and moves the rest to the area's start. */
  private async writeStaged(length: number): Promise<void> {
    const { area } = this.staged!;
    await new Promise<void>((resolve, reject) => writeDirect(this.fd!, area, length, this.position, () => this.destroyed, (error) => (error ? reject(error) : resolve())));
    this.position += length;
    area.copyWithin(0, length, this.stagedBytes);
    this.stagedBytes -= length;
  }

  /** Direct writing: the last partial block, padded with zeros, then the file cut back to the bytes taken. */
  override _final(callback: (error?: Error | null) => void): void {
    if (!this.staged) return callback();
    const done = this.startWork(callback);
    const { area } = this.staged;
    const padded = Math.ceil(this.stagedBytes / DIRECT_BLOCK) * DIRECT_BLOCK;
    area.fill(0, this.stagedBytes, padded);
    const cut = () => fs.ftruncate(this.fd!, this.size, (error) => done(error));
    if (padded === 0) return cut();
    writeDirect(this.fd!, area, padded, this.position, () => this.destroyed, (error) => (error ? done(error) : cut()));
  }

  /**
   * Closes the file, after the write or flush under way (an upload cut short destroys the stream in
   * the middle of one): a descriptor closed under a write in libuv's threads could be reused by
   * another file before the write lands, and a staging area given back under a write could be
   * filled by another file before the disk has read it.
   */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const close = () => {
      const fd = this.fd;
      const staged = this.staged;
      this.fd = null;
      this.staged = null;
      if (staged) stagingPool.give(staged.slot);
      if (fd === null) return callback(error);
      fs.close(fd, (closeError) => callback(error ?? closeError));
    };
    if (this.busy) this.afterBusy = close;
    else close();
  }
}

/**
 * Writes one file part to its temporary file. A broken upload (closed tab, truncated body) rejects
 * instead of hanging. When the file cannot be written (a full disk), the rest of the part is still
 * read and dropped: the parser must reach the end of the body to answer at all. Settles once the
 * file is closed, so the upload is answered (and its files removed) only after nothing writes to
 * them any more.
 */
function writeFilePart(part: Readable, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: Error | null = null;
    let finishedWriting = false;
    part.on("error", (error) => {
      failure ??= error;
      out.destroy();
    });
    out.on("finish", () => (finishedWriting = true));
    out.on("error", (error) => {
      failure ??= error;
      part.unpipe(out);
      part.resume();
    });
    out.on("close", () => (failure ? reject(failure) : finishedWriting ? resolve() : reject(new Error("the temporary file closed early"))));
    part.pipe(out);
  });
}

/** Why an upload was refused; the request's thread turns it into the Spanish message. */
export type UploadFailure =
  | { reason: "field-too-long" | "total-too-large" | "too-many-files" | "too-many-parts" | "too-many-fields" | "unreadable" | "no-space" }
  | { reason: "file-too-large"; name: string };

export interface ThreadFile {
  field: string;
  name: string;
  tmpPath: string;
  size: number;
  /** Hex, unless the limits asked for `checksum: "crc32"`; then `crc32`, 8 hex digits. */
  sha256?: string;
  crc32?: string;
  head: Uint8Array;
  tail: Uint8Array;
}

export type UploadThreadRequest =
  /** `tmpPaths`: the names to write files to, in order (one per allowed file), made by the request's thread so it can remove them if this thread dies. */
  | { type: "start"; id: number; contentType: string; limits: UploadLimits; tmpPaths: string[] }
  /** The body's next chunks, in order. */
  | { type: "chunks"; id: number; chunks: Uint8Array[] }
  | { type: "end"; id: number }
  | { type: "abort"; id: number };

export type UploadThreadResponse =
  /** `bytes` more of the body were parsed (sent every ACK_BYTES or so): the request's thread may send that much more. */
  | { type: "consumed"; id: number; bytes: number }
  /** The upload is over: the text fields read, and the files when there is no failure (else none are left on disk). */
  | { type: "done"; id: number; fields: [string, string][]; files: ThreadFile[]; failure: UploadFailure | null };

const PEEK_BYTES = 64 * 1024;
/** Parsed bytes are reported in batches of at least this much (a message per chunk would cost more than it says). */
export const ACK_BYTES = 256 * 1024;

interface Receiving {
  parser: MultipartParser;
  unacknowledged: number;
}

const uploads = new Map<number, Receiving>();
const port = parentPort;

function post(message: UploadThreadResponse): void {
  port?.postMessage(message);
}

function removeQuietly(paths: string[]): Promise<unknown> {
  return Promise.all(paths.map((file) => fs.promises.rm(file, { force: true }).catch(() => {})));
}

function start({ id, contentType, limits, tmpPaths }: Extract<UploadThreadRequest, { type: "start" }>): void {
  const fields: [string, string][] = [];
  // In the order the parts came (a later small file may finish writing before an earlier big one).
  const files: (ThreadFile | undefined)[] = [];
  const created: string[] = [];
  const writes: Promise<void>[] = [];
  let failure: UploadFailure | null = null;
  let totalBytes = 0;
  const fail = (reason: UploadFailure) => {
    failure ??= reason;
  };

  let parser: MultipartParser;
  try {
    parser = new MultipartParser({
      contentType,
      // The parser reports "limit" on reaching fileSize; a file of exactly the maximum is allowed.
      limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes + 1, fields: 200, fieldSize: 64 * 1024, parts: 300 },
    });
  } catch {
    // Not multipart/form-data, or no boundary the parser can use.
    post({ type: "done", id, fields, files: [], failure: { reason: "unreadable" } });
    return;
  }
  uploads.set(id, { parser, unacknowledged: 0 });
  const parsed = finished(parser);

  parser.on("field", (name: string, value: string, info: { valueTruncated: boolean }) => {
    if (info.valueTruncated) fail({ reason: "field-too-long" });
    fields.push([name, value]);
  });

  parser.on("file", (field: string, stream: Readable, info: { filename: string | undefined }) => {
    const name = path.basename(info.filename ?? "").trim();
    const tmpPath = tmpPaths[created.length];
    if (!name || failure || !tmpPath) {
      // Dropped; a body that ends or is aborted inside it fails it, which is the parser's to report.
      stream.on("error", () => {});
      stream.resume();
      return;
    }
    created.push(tmpPath);
    const slot = created.length - 1;
    const out = new TemporaryFile(tmpPath);
    // CRC-32 costs about a third of sha256 per byte (zlib's, 0.8 against 2.5 ms for 5 MB here).
    const hash = limits.checksum === "crc32" ? null : createHash("sha256");
    let crc = 0;
    const headChunks: Buffer[] = [];
    let headBytes = 0;
    let tailChunks: Buffer[] = [];
    let tailBytes = 0;
    let size = 0;

    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      totalBytes += chunk.length;
      if (totalBytes > limits.maxTotalBytes) fail({ reason: "total-too-large" });
      if (failure) return;
      if (hash) hash.update(chunk);
      else crc = zlib.crc32(chunk, crc);
      if (headBytes < PEEK_BYTES) {
        headChunks.push(chunk.subarray(0, PEEK_BYTES - headBytes));
        headBytes += Math.min(chunk.length, PEEK_BYTES - headBytes);
      }
      tailChunks.push(chunk);
      tailBytes += chunk.length;
      while (tailChunks.length > 1 && tailBytes - tailChunks[0]!.length >= PEEK_BYTES) tailBytes -= tailChunks.shift()!.length;
    });
    stream.on("limit", () => fail({ reason: "file-too-large", name }));

    writes.push(
      writeFilePart(stream, out).then(
        () => {
          if (failure) return;
          const tail = Buffer.concat(tailChunks);
          tailChunks = [];
          files[slot] = { field, name, tmpPath, size, ...(hash ? { sha256: hash.digest("hex") } : { crc32: crc.toString(16).padStart(8, "0") }), head: Buffer.concat(headChunks), tail: tail.subarray(Math.max(0, tail.length - PEEK_BYTES)) };
        },
        // The disk (or the quota) is full: the server's problem, not the sender's body.
        (error: NodeJS.ErrnoException) => fail({ reason: error.code === "ENOSPC" || error.code === "EDQUOT" ? "no-space" : "unreadable" }),
      ),
    );
  });

  parser.on("filesLimit", () => fail({ reason: "too-many-files" }));
  parser.on("partsLimit", () => fail({ reason: "too-many-parts" }));
  parser.on("fieldsLimit", () => fail({ reason: "too-many-fields" }));

  void (async () => {
    try {
      await parsed;
      await Promise.all(writes);
    } catch {
      // A body cut short or malformed, or aborted by the request's thread; a limit reached first is the reason given.
      await Promise.allSettled(writes);
      fail({ reason: "unreadable" });
    }
    uploads.delete(id);
    if (failure) await removeQuietly(created);
    post({ type: "done", id, fields, files: failure ? [] : files.filter((file): file is ThreadFile => file !== undefined), failure });
  })();
}

function acknowledge(id: number, receiving: Receiving, bytes: number): void {
  receiving.unacknowledged += bytes;
  if (receiving.unacknowledged < ACK_BYTES) return;
  post({ type: "consumed", id, bytes: receiving.unacknowledged });
  receiving.unacknowledged = 0;
}

port?.on("message", (message: UploadThreadRequest) => {
  if (message.type === "start") return start(message);
  const receiving = uploads.get(message.id);
  if (!receiving) return; // already over (a malformed body): the request's thread stops sending
  switch (message.type) {
    case "chunks":
      // Each callback comes once the parser has taken the chunk (later when a file's disk write lags behind).
      for (const bytes of message.chunks) {
        receiving.parser.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), () => acknowledge(message.id, receiving, bytes.byteLength));
      }
      return;
    case "end":
      receiving.parser.end();
      return;
    case "abort":
      receiving.parser.destroy(new Error("upload aborted"));
      return;
  }
});
