import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/** The sha256 (hex) and size of a stored file's bytes, read as a stream: a chunk in memory at a time. */
export async function sha256AndSize(body: ReadableStream<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of Readable.fromWeb(body as NodeReadableStream<Uint8Array>)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
  }
  return { sha256: hash.digest("hex"), size };
}

/** The sha256 (hex) of a stored file's bytes, read as a stream. */
export async function sha256OfStream(body: ReadableStream<Uint8Array>): Promise<string> {
  return (await sha256AndSize(body)).sha256;
}
