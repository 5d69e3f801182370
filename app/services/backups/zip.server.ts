import fs from "node:fs";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

// A backup is a ZIP archive (as PocketBase's), written as a stream with fflate and read back through
// its central directory with Node's zlib, one entry at a time, so neither side ever holds the whole
// archive in memory. Plain ZIP (no ZIP64): at most 65,535 entries and 4 GiB, checked before writing
// past them (docs/decisions/0055).

export const ZIP_MAX_ENTRIES = 65_535;
export const ZIP_MAX_BYTES = 0xffff_ffff;

export class ArchiveLimitError extends Error {}

/** Writes a ZIP archive to an open file, entry after entry, waiting for the disk as it goes. */
export class ZipFileWriter {
  private readonly zip: Zip;
  private queue: Uint8Array[] = [];
  private failure: Error | null = null;
  private written = 0;
  private entries = 0;

  constructor(private readonly handle: fs.promises.FileHandle) {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure = error;
      else this.queue.push(chunk);
    });
  }

  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    while (this.queue.length) {
      const chunk = this.queue.shift()!;
      this.written += chunk.length;
      if (this.written > ZIP_MAX_BYTES) throw new ArchiveLimitError("El respaldo pasaría de 4 GiB, el máximo de un archivo ZIP sin ZIP64.");
      await this.handle.write(chunk);
    }
  }

  /** Adds an entry from a byte source: deflated (text) or stored as it is (files, mostly compressed already). */
  async add(name: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: { deflate: boolean }): Promise<void> {
    this.entries += 1;
    if (this.entries > ZIP_MAX_ENTRIES) throw new ArchiveLimitError(`El respaldo tendría más de ${ZIP_MAX_ENTRIES} entradas, el máximo de un archivo ZIP sin ZIP64.`);
    const entry = options.deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    this.zip.add(entry);
    for await (const piece of source) {
      entry.push(piece instanceof Uint8Array ? piece : new Uint8Array(piece), false);
      await this.flush();
    }
    entry.push(new Uint8Array(0), true);
    await this.flush();
  }

  async end(): Promise<number> {
    this.zip.end();
    await this.flush();
    return this.written;
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class BadArchiveError extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The entries of a ZIP archive, from its central directory; throws BadArchiveError for anything else. */
export async function readZipEntries(file: string): Promise<ZipEntry[]> {
  const handle = await fs.promises.open(file, "r");
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = await readAt(handle, size - tailLength, tailLength);
    let end = -1;
    for (let at = tail.length - 22; at >= 0; at -= 1) {
      if (tail.readUInt32LE(at) === EOCD_SIGNATURE) {
        end = at;
        break;
      }
    }
    if (end < 0) throw new BadArchiveError("No es un archivo ZIP.");
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) throw new BadArchiveError("El archivo ZIP está incompleto.");
    const directory = await readAt(handle, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new BadArchiveError("El índice del archivo ZIP está dañado.");
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      entries.push({
        method: directory.readUInt16LE(at + 10),
        crc: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        localHeaderOffset: directory.readUInt32LE(at + 42),
        name: directory.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/**
 * An entry's bytes as a stream, checked against its size and CRC-32 at the end (a damaged archive
 * fails rather than restoring wrong bytes).
 */
export async function openZipEntry(file: string, entry: ZipEntry): Promise<Readable> {
  if (entry.method !== 0 && entry.method !== 8) throw new BadArchiveError(`Método de compresión no admitido en ${entry.name}.`);
  const handle = await fs.promises.open(file, "r");
  let local: Buffer;
  try {
    local = await readAt(handle, entry.localHeaderOffset, 30);
  } finally {
    await handle.close();
  }
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new BadArchiveError(`La entrada ${entry.name} del archivo ZIP está dañada.`);
  const start = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark: 256 * 1024 });
  const body: Readable = entry.compressedSize === 0 ? Readable.from([]) : entry.method === 8 ? raw.pipe(zlib.createInflateRaw()) : raw;
  if (entry.method === 8 && entry.compressedSize > 0) raw.on("error", (error) => body.destroy(error));
  return Readable.from(checked(body, entry));
}

async function* checked(body: Readable, entry: ZipEntry): AsyncGenerator<Buffer> {
  let crc = 0;
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    crc = zlib.crc32(chunk, crc);
    size += chunk.length;
    yield chunk;
  }
  if (size !== entry.size || crc >>> 0 !== entry.crc >>> 0) throw new BadArchiveError(`La entrada ${entry.name} del archivo ZIP no coincide con su suma de verificación.`);
}

/** An entry's bytes whole (for the small ones: the manifest). */
export async function readZipEntry(file: string, entry: ZipEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openZipEntry(file, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
