// Entry of the upload worker thread (docs/decisions/0006, 0032): the per-byte work of a multipart
// upload — finding the parts (busboy), hashing each file (sha256), keeping its first and last 64 KiB
// for the content check and writing it to its temporary file — runs here, off the request's thread.
// The request's thread only reads the body and passes each chunk on (multipart.server.ts), and says
// what a failure means in Spanish. Node runs this file as it is in tests and development (types
// stripped); the build bundles it to build/upload-worker.mjs (scripts/build-geometry-worker.mjs).
// Imports are Node's and busboy only: nothing here may need the app's bundler.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { parentPort } from "node:worker_threads";
import busboy from "busboy";
import type { UploadLimits } from "./multipart.server";

/** A temporary file's written bytes are flushed to the disk every this many (see TemporaryFile). */
export const FLUSH_EVERY_BYTES = 1024 * 1024;

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

/**
 * A temporary upload file, created new ("wx"). Chunks that arrive while a write is under way go
 * out together in one writev. Every FLUSH_EVERY_BYTES the bytes written are flushed to the disk
 * (fdatasync) while the rest of the body is still arriving: storing the file syncs it again
 * (storage.server.ts, moveIntoStorage), and that sync then has little left to write instead of all
 * of it at once, after the last byte, when every upload of a burst asks for it together.
 */
export class TemporaryFile extends Writable {
  private readonly file: string;
  private fd: number | null = null;
  private unflushed = 0;
  /** A write or a flush is under way on `fd`. */
  private busy = false;
  /** The close that waits for it (see _destroy). */
  private afterBusy: (() => void) | null = null;

  constructor(file: string) {
    super({ highWaterMark: FLUSH_EVERY_BYTES });
    this.file = file;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.open(this.file, "wx", (error, fd) => {
      if (!error) this.fd = fd;
      callback(error);
    });
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    const fd = this.fd!;
    this.busy = true;
    const done = (error?: Error | null) => {
      this.busy = false;
      callback(error);
      const close = this.afterBusy;
      this.afterBusy = null;
      close?.();
    };
    writeAll(
      fd,
      chunks.map(({ chunk }) => chunk),
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

  /**
   * Closes the file, after the write or flush under way (an upload cut short destroys the stream in
   * the middle of one): a descriptor closed under a write in libuv's threads could be reused by
   * another file before the write lands.
   */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const close = () => {
      const fd = this.fd;
      this.fd = null;
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
 * read and dropped: the parser must reach the end of the body to answer at all.
 */
function writeFilePart(part: Readable, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let finishedWriting = false;
    part.on("error", (error) => {
      out.destroy();
      reject(error);
    });
    out.on("finish", () => (finishedWriting = true));
    out.on("error", (error) => {
      part.unpipe(out);
      part.resume();
      reject(error);
    });
    out.on("close", () => (finishedWriting ? resolve() : reject(new Error("the temporary file closed early"))));
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
  sha256: string;
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
  parser: ReturnType<typeof busboy>;
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

  let parser: ReturnType<typeof busboy>;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      // busboy reports "limit" on reaching fileSize; a file of exactly the maximum is allowed.
      limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes + 1, fields: 200, fieldSize: 64 * 1024, parts: 300 },
    });
  } catch {
    // No boundary, or one busboy cannot use.
    post({ type: "done", id, fields, files: [], failure: { reason: "unreadable" } });
    return;
  }
  uploads.set(id, { parser, unacknowledged: 0 });
  const parsed = finished(parser);

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail({ reason: "field-too-long" });
    fields.push([name, value]);
  });

  parser.on("file", (field, stream, info) => {
    const name = path.basename(info.filename ?? "").trim();
    const tmpPath = tmpPaths[created.length];
    if (!name || failure || !tmpPath) {
      stream.resume();
      return;
    }
    created.push(tmpPath);
    const slot = created.length - 1;
    const out = new TemporaryFile(tmpPath);
    const hash = createHash("sha256");
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
      hash.update(chunk);
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
          files[slot] = { field, name, tmpPath, size, sha256: hash.digest("hex"), head: Buffer.concat(headChunks), tail: tail.subarray(Math.max(0, tail.length - PEEK_BYTES)) };
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
      // Each callback comes once busboy has taken the chunk (later when a file's disk write lags behind).
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
