import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { formatFileSize } from "~/lib/format";
import { removeQuietly } from "./storage.server";

export interface UploadLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export interface UploadedFile {
  field: string;
  name: string;
  tmpPath: string;
  size: number;
  sha256: string;
  /** First and last 64 KiB, for type detection by content. */
  head: Buffer;
  tail: Buffer;
}

export type UploadResult =
  | { ok: true; fields: FormData; files: UploadedFile[] }
  | { ok: false; status: 400 | 413; message: string; fields: FormData };

const PEEK_BYTES = 64 * 1024;
/** Past the limits we keep reading (and discarding) this much more, so the browser gets our answer. */
const DRAIN_ALLOWANCE = 100 * 1024 * 1024;


/**
 * Reads a multipart form as a stream: text fields into FormData, files straight to temporary files
 * under `tmpDir`, limits enforced while reading (never the whole upload in memory). On a limit the
 * text fields read so far are still returned, so the form can be shown again with what was typed.
 */
export async function parseMultipartUpload(request: Request, limits: UploadLimits, tmpDir: string): Promise<UploadResult> {
  const fields = new FormData();
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data") || !request.body) {
    return { ok: false, status: 400, message: "El formulario debe enviarse con sus archivos (multipart/form-data).", fields };
  }

  const files: UploadedFile[] = [];
  const created: string[] = [];
  const writes: Promise<void>[] = [];
  let failure: { status: 400 | 413; message: string } | null = null;
  let totalBytes = 0;
  const fail = (status: 400 | 413, message: string) => {
    failure ??= { status, message };
  };

  const parser = busboy({
    headers: { "content-type": contentType },
    defParamCharset: "utf8",
    // busboy reports "limit" on reaching fileSize; a file of exactly the maximum is allowed.
    limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes + 1, fields: 200, fieldSize: 64 * 1024, parts: 300 },
  });

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(400, "Uno de los campos es demasiado largo.");
    fields.append(name, value);
  });

  parser.on("file", (field, stream, info) => {
    const name = path.basename(info.filename ?? "").trim();
    if (!name || failure) {
      stream.resume();
      return;
    }
    const tmpPath = path.join(tmpDir, randomUUID());
    created.push(tmpPath);
    const out = fs.createWriteStream(tmpPath, { flags: "wx" });
    const hash = createHash("sha256");
    const headChunks: Buffer[] = [];
    let headBytes = 0;
    let tailChunks: Buffer[] = [];
    let tailBytes = 0;
    let size = 0;

    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      totalBytes += chunk.length;
      if (totalBytes > limits.maxTotalBytes) fail(413, `Los archivos suman más de ${formatFileSize(limits.maxTotalBytes)}. Adjunte menos o más ligeros.`);
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
    stream.on("limit", () => fail(413, `El archivo «${name}» pasa de ${formatFileSize(limits.maxFileBytes)}, el máximo por archivo.`));

    // pipeline passes a broken upload (closed tab, truncated body) on as an error instead of hanging.
    writes.push(
      pipeline(stream, out).then(() => {
        if (failure) return;
        const tail = Buffer.concat(tailChunks);
        tailChunks = [];
        files.push({ field, name, tmpPath, size, sha256: hash.digest("hex"), head: Buffer.concat(headChunks), tail: tail.subarray(Math.max(0, tail.length - PEEK_BYTES)) });
      }, () => fail(400, "No pudimos leer el formulario completo. Intente enviarlo de nuevo.")),
    );
  });

  parser.on("filesLimit", () => fail(413, `Puede adjuntar hasta ${limits.maxFiles} archivos.`));
  parser.on("partsLimit", () => fail(413, "El formulario tiene demasiadas partes."));
  parser.on("fieldsLimit", () => fail(413, "El formulario tiene demasiados campos."));

  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  let received = 0;
  source.on("data", (chunk: Buffer) => {
    received += chunk.length;
    // Someone is sending far past every limit: stop reading instead of draining forever.
    if (received > limits.maxTotalBytes + DRAIN_ALLOWANCE) source.destroy(new Error("upload too large"));
  });

  try {
    await pipeline(source, parser);
    await Promise.all(writes);
  } catch {
    await Promise.allSettled(writes);
    await removeQuietly(created);
    const reported = failure as { status: 400 | 413; message: string } | null;
    return { ok: false, fields, ...(reported ?? { status: 400, message: "No pudimos leer el formulario completo. Intente enviarlo de nuevo." }) };
  }

  const reported = failure as { status: 400 | 413; message: string } | null;
  if (reported) {
    await removeQuietly(created);
    return { ok: false, fields, ...reported };
  }
  return { ok: true, fields, files };
}
