import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { formatFileSize } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { FORM_BODY_MESSAGES, formProblem, isAcceptableFileName, withoutForgedIntent } from "~/lib/request-body";
import { NO_SPACE_MESSAGE, newTmpUploadPath, removeQuietly } from "./storage.server";
import type { ThreadFile, UploadFailure, UploadThreadRequest, UploadThreadResponse } from "./upload-thread";

export interface UploadLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /**
   * Each file's checksum while it arrives: its sha256 (the default), or a CRC-32 when the caller
   * only needs to tell files apart then and takes the sha256 later, off the request (0080).
   */
  checksum?: "sha256" | "crc32";
}

interface ReceivedFile {
  field: string;
  name: string;
  tmpPath: string;
  size: number;
  /** First and last 64 KiB, for type detection by content. */
  head: Buffer;
  tail: Buffer;
}

/** A file read with the default limits: its sha256 taken while it arrived. */
export interface UploadedFile extends ReceivedFile {
  sha256: string;
}

/** A file read with `checksum: "crc32"`: its sha256 is the caller's to take later (0080). */
export interface UploadedFileByCrc extends ReceivedFile {
  /** Hex, 8 digits. */
  crc32: string;
}

export type UploadResult<File = UploadedFile> =
  | { ok: true; fields: FormData; files: File[] }
  | { ok: false; status: 400 | 413 | 507; message: string; fields: FormData };

/** Past the limits we keep reading (and discarding) this much more, so the browser gets our answer. */
const DRAIN_ALLOWANCE = 100 * 1024 * 1024;
/** Body bytes sent to the upload thread and not yet parsed there, per upload: past this, reading waits. */
const IN_FLIGHT_BYTES = 1024 * 1024;
/** Body chunks go to the thread together, up to this many bytes in one message (see ChunkBatch). */
const BATCH_BYTES = 256 * 1024;

const UNREADABLE = "No pudimos leer el formulario completo. Intente enviarlo de nuevo.";

function failureMessage(failure: UploadFailure, limits: UploadLimits): { status: 400 | 413 | 507; message: string } {
  switch (failure.reason) {
    case "field-too-long":
      return { status: 400, message: "Uno de los campos es demasiado largo." };
    case "total-too-large":
      return { status: 413, message: `Los archivos suman más de ${formatFileSize(limits.maxTotalBytes)}. Adjunte menos o más ligeros.` };
    case "file-too-large":
      return { status: 413, message: `El archivo «${failure.name}» pasa de ${formatFileSize(limits.maxFileBytes)}, el máximo por archivo.` };
    case "too-many-files":
      return { status: 413, message: `Puede adjuntar hasta ${limits.maxFiles} archivos.` };
    case "too-many-parts":
      return { status: 413, message: "El formulario tiene demasiadas partes." };
    case "too-many-fields":
      return { status: 413, message: "El formulario tiene demasiados campos." };
    case "unreadable":
      return { status: 400, message: UNREADABLE };
    case "no-space":
      return { status: 507, message: NO_SPACE_MESSAGE };
  }
}

// The per-byte work of an upload (multipart parsing, sha256, writing the files) runs in one worker
// thread per process (upload-thread.ts, docs/decisions/0032): twenty 5 MB uploads at once no longer
// take turns with every other request for this thread. Here the body's chunks are only passed on, a
// few at a time (ChunkBatch), their buffers transferred, not copied, and at most IN_FLIGHT_BYTES
// wait there per upload.

type Done = Extract<UploadThreadResponse, { type: "done" }>;

/** One upload on the thread, as the request's thread sees it. */
class PendingUpload {
  /** Bytes sent and not yet parsed. */
  inFlight = 0;
  /** The thread's answer, once it came. */
  done: (Done & { lost?: true }) | null = null;
  readonly answer: Promise<Done & { lost?: true }>;
  private resolve!: (done: Done & { lost?: true }) => void;
  private wake: (() => void) | null = null;

  constructor() {
    this.answer = new Promise((resolve) => (this.resolve = resolve));
  }

  parsed(bytes: number): void {
    this.inFlight -= bytes;
    this.wakeUp();
  }

  settle(done: Done & { lost?: true }): void {
    if (this.done) return;
    this.done = done;
    this.resolve(done);
    this.wakeUp();
  }

  /** Resolves at the next progress: bytes parsed, or the answer. */
  progress(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

interface UploadThread {
  worker: Worker;
  uploads: Map<number, PendingUpload>;
}

let thread: UploadThread | undefined;
let nextId = 0;

/** The thread's module: its TypeScript source beside this file when the app runs from source (tests, development), else the bundle beside the build. */
function uploadWorkerFile(): string {
  const source = path.join(path.dirname(fileURLToPath(import.meta.url)), "upload-thread.ts");
  return fs.existsSync(source) ? source : path.resolve(process.env.UPLOAD_WORKER_FILE ?? "build/upload-worker.mjs");
}

function uploadThread(): UploadThread {
  if (thread) return thread;
  const current: UploadThread = { worker: new Worker(uploadWorkerFile()), uploads: new Map() };
  const { worker, uploads } = current;
  // Only uploads in progress keep the process alive (see track).
  worker.unref();
  worker.on("message", (message: UploadThreadResponse) => {
    const upload = uploads.get(message.id);
    if (!upload) return;
    if (message.type === "consumed") return upload.parsed(message.bytes);
    untrack(current, message.id);
    upload.settle(message);
  });
  const lost = (error?: Error) => {
    if (thread === current) thread = undefined;
    if (error) logger.error({ err: error }, "upload thread failed");
    for (const [id, upload] of uploads) upload.settle({ type: "done", id, fields: [], files: [], failure: { reason: "unreadable" }, lost: true });
    uploads.clear();
  };
  worker.on("error", lost);
  worker.on("exit", () => lost());
  thread = current;
  return current;
}

function track(current: UploadThread, id: number, upload: PendingUpload): void {
  if (current.uploads.size === 0) current.worker.ref();
  current.uploads.set(id, upload);
}

function untrack(current: UploadThread, id: number): void {
  current.uploads.delete(id);
  if (current.uploads.size === 0) current.worker.unref();
}

function post(current: UploadThread, message: UploadThreadRequest, transfer: ArrayBuffer[] = []): void {
  current.worker.postMessage(message, transfer);
}

/** A chunk's buffer moves to the thread when the chunk is all of it (a chunk read from a stream is its reader's); else it is copied. */
function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : [];
}

/**
 * The body's chunks on their way to the thread. The HTTP parser hands them over 64 KiB or less at a
 * time; one message each was 80 messages per 5 MB upload, each with its own structured clone and
 * wake-up of the thread. Chunks read in the same turn of the event loop go as one message, sent
 * when the turn ends or when BATCH_BYTES are waiting, whichever comes first.
 */
class ChunkBatch {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private scheduled = false;
  private over = false;

  constructor(
    private readonly current: UploadThread,
    private readonly id: number,
  ) {}

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bytes += chunk.byteLength;
    if (this.bytes >= BATCH_BYTES) return this.send();
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  /**
   * Sends what is waiting now (before the reader waits for the thread, and before the body's end).
   * Chunks that cannot be sent (a buffer already gone) abort the upload: the thread answers, and the
   * reader stops at that answer.
   */
  send(): void {
    if (this.over || this.chunks.length === 0) return;
    const chunks = this.chunks;
    this.chunks = [];
    this.bytes = 0;
    try {
      post(this.current, { type: "chunks", id: this.id, chunks }, chunks.flatMap(transferable));
    } catch {
      this.abort();
    }
  }

  /** The body's end: what waits goes first, then nothing more. */
  end(): void {
    this.send();
    this.close();
    post(this.current, { type: "end", id: this.id });
  }

  /** The upload stops here: what waits is dropped and the thread told to give up. */
  abort(): void {
    this.close();
    post(this.current, { type: "abort", id: this.id });
  }

  /** Nothing more goes to the thread (the thread already answered). */
  close(): void {
    this.over = true;
    this.chunks = [];
  }
}

/**
 * Reads a multipart form as a stream: text fields into FormData, files straight to temporary files
 * under `tmpDir`, limits enforced while reading (never the whole upload in memory). On a limit the
 * text fields read so far are still returned, so the form can be shown again with what was typed.
 */
export async function parseMultipartUpload(request: Request, limits: UploadLimits & { checksum: "crc32" }, tmpDir: string): Promise<UploadResult<UploadedFileByCrc>>;
export async function parseMultipartUpload(request: Request, limits: UploadLimits & { checksum?: "sha256" }, tmpDir: string): Promise<UploadResult>;
export async function parseMultipartUpload(request: Request, limits: UploadLimits, tmpDir: string): Promise<UploadResult<UploadedFile | UploadedFileByCrc>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data") || !request.body) {
    return { ok: false, status: 400, message: "El formulario debe enviarse con sus archivos (multipart/form-data).", fields: new FormData() };
  }

  // The thread writes the files under these names, so this side can remove them if the thread dies.
  const tmpPaths = Array.from({ length: limits.maxFiles }, () => newTmpUploadPath(tmpDir));
  const current = uploadThread();
  const id = nextId++;
  const upload = new PendingUpload();
  track(current, id, upload);
  post(current, { type: "start", id, contentType, limits, tmpPaths });

  const reader = request.body.getReader();
  // The thread may answer before the body ends (a malformed body): stop reading then, even while
  // waiting for the client's next bytes (a read then ends at once). The rest of the body is dropped
  // while the answer goes out (server/router-handler.ts).
  void upload.answer.then(() => reader.cancel().catch(() => {}));
  const batch = new ChunkBatch(current, id);
  let received = 0;
  try {
    for (;;) {
      // The thread answered (the reader was cancelled with it, above).
      if (upload.done) {
        batch.close();
        break;
      }
      if (upload.inFlight > IN_FLIGHT_BYTES) {
        // The thread can only make progress on what it was sent.
        batch.send();
        await upload.progress();
        continue;
      }
      const { done, value } = await reader.read();
      // The answer came while this read waited: nothing more goes to the thread.
      if (upload.done) continue;
      if (done) {
        batch.end();
        break;
      }
      received += value.byteLength;
      // Someone is sending far past every limit: stop reading instead of draining forever.
      if (received > limits.maxTotalBytes + DRAIN_ALLOWANCE) {
        batch.abort();
        await reader.cancel().catch(() => {});
        break;
      }
      upload.inFlight += value.byteLength;
      batch.add(value);
    }
  } catch {
    // The body failed half-way (the connection broke).
    batch.abort();
  }

  const result = await upload.answer;
  const fields = new FormData();
  for (const [name, value] of result.fields) fields.append(name, value);
  // Text PostgreSQL cannot store (NUL), file names no one gives (control characters, past 255
  // characters) and forged form intents: the sender's mistake, a 400 (docs/decisions/0035).
  const refused = formProblem(fields) ?? (result.files.some((file) => !isAcceptableFileName(file.name)) ? FORM_BODY_MESSAGES.fileName : null);
  if (result.failure) {
    // The thread removes what it wrote; when it died, this side does.
    if (result.lost) await removeQuietly(tmpPaths);
    return { ok: false, fields: withoutForgedIntent(fields), ...failureMessage(result.failure, limits) };
  }
  if (refused) {
    await removeQuietly(result.files.map((file) => file.tmpPath));
    return { ok: false, status: 400, message: refused, fields: withoutForgedIntent(fields) };
  }
  return { ok: true, fields, files: result.files.map(toUploadedFile) };
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function toUploadedFile({ sha256, crc32, ...file }: ThreadFile): UploadedFile | UploadedFileByCrc {
  const received = { ...file, head: asBuffer(file.head), tail: asBuffer(file.tail) };
  return sha256 === undefined ? { ...received, crc32: crc32! } : { ...received, sha256 };
}
