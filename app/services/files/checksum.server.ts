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

/** Bytes hashed between two turns of the event loop (about half a millisecond each). */
const SLICE_BYTES = 1024 * 1024;

/**
 * The sha256 (hex) of bytes already in memory, a slice at a time with a turn of the event loop
 * between slices: a 50 MB file no longer holds every request for 25 ms at once.
 */
export async function sha256OfBytes(bytes: Uint8Array): Promise<string> {
  const hash = createHash("sha256");
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    hash.update(bytes.subarray(at, at + SLICE_BYTES));
    if (at + SLICE_BYTES < bytes.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return hash.digest("hex");
}
