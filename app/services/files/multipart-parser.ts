// A streaming multipart/form-data parser for the upload thread (docs/decisions/0074). The parts'
// delimiter is found with Buffer#indexOf, which scans a chunk natively, instead of a byte-by-byte
// search in JavaScript: for a 5 MB file that search was the thread's largest cost. File bytes are
// passed on as views of the body's own chunks, never copied. Only Node's modules are imported: the
// thread runs this file as it is in tests and development (types stripped).
//
// Events, as the upload thread uses them:
// - "field" (name, value, { valueTruncated }): a text part, decoded as UTF-8 (or its charset);
// - "file" (name, stream, { filename, mimeType }): a part with a filename (or of type
//   application/octet-stream); `stream` is a Readable of its bytes that emits "limit" when the file
//   passes `limits.fileSize` (the rest of the part is dropped);
// - "filesLimit", "fieldsLimit", "partsLimit": once, when a limit is reached; the parts past it are
//   dropped;
// - "error": a malformed body (a part's headers, a delimiter not followed by CRLF or "--"), or one
//   that ends before its closing delimiter. The file being read, if any, fails with it.
// Each write's callback comes once its bytes are parsed; while a file's reader lags behind, the
// callback waits for it (backpressure).
import { Readable, Writable } from "node:stream";

export interface MultipartLimits {
  files: number;
  fileSize: number;
  fields: number;
  fieldSize: number;
  parts: number;
}

/** A part's header block may be this long at most (as Node's HTTP headers). */
const MAX_HEADER_BYTES = 16 * 1024;
const CR = 13;
const LF = 10;
const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");

/** The boundary of a `multipart/form-data` content type; throws for any other type, or none. */
export function boundaryOf(contentType: string): string {
  const [type, ...params] = splitParameters(contentType);
  if (type?.toLowerCase() !== "multipart/form-data") throw new Error("not multipart/form-data");
  for (const param of params) {
    const equals = param.indexOf("=");
    if (equals > 0 && param.slice(0, equals).trim().toLowerCase() === "boundary") {
      const boundary = unquote(param.slice(equals + 1).trim());
      if (boundary.length >= 1 && boundary.length <= 70) return boundary;
    }
  }
  throw new Error("no usable boundary");
}

/** `a; b="x;y"; c` → ["a", 'b="x;y"', "c"]: split at semicolons outside quotes. */
function splitParameters(text: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === "\\" && index + 1 < text.length) {
      current += char + text[++index];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ";" && !quoted) {
      pieces.push(current.trim());
      current = "";
    } else current += char;
  }
  pieces.push(current.trim());
  return pieces;
}

/** A parameter's value: a quoted string without its quotes and escapes, or the token as it is. */
function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  return value.slice(1, -1).replace(/\\(.)/g, "$1");
}

/** RFC 5987 `charset'language'percent-encoded`; undefined when it cannot be read. */
function extendedValue(value: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return undefined;
  try {
    const bytes = Buffer.from(match[2]!.replace(/%([0-9a-fA-F]{2})|([^%])/g, (_all, hex: string | undefined, char: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : char!)), "latin1");
    return decode(bytes, match[1] || "utf-8");
  } catch {
    return undefined;
  }
}

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** The last path segment (either slash): a browser on Windows may send the whole path. */
function basename(name: string): string {
  const cut = Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\"));
  return cut === -1 ? name : name.slice(cut + 1);
}

interface PartHeaders {
  name: string | undefined;
  filename: string | undefined;
  mimeType: string;
  charset: string;
}

/** The headers of a part (`Name: value` lines), or null when they are malformed. */
function parseHeaders(block: string): { disposition?: string; contentType?: string } | null {
  const headers: { disposition?: string; contentType?: string } = {};
  if (block === "") return headers;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(line.slice(0, colon))) return null;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") headers.disposition ??= value;
    else if (name === "content-type") headers.contentType ??= value;
  }
  return headers;
}

/** What a part is, from its headers; null for a part that is not form data (dropped). */
function describePart(headers: { disposition?: string; contentType?: string }): PartHeaders | null {
  if (!headers.disposition) return null;
  const [type, ...params] = splitParameters(headers.disposition);
  if (type?.toLowerCase() !== "form-data") return null;
  const values = new Map<string, string>();
  for (const param of params) {
    const equals = param.indexOf("=");
    if (equals > 0) values.set(param.slice(0, equals).trim().toLowerCase(), param.slice(equals + 1).trim());
  }
  const extended = values.has("filename*") ? extendedValue(values.get("filename*")!) : undefined;
  const plain = values.has("filename") ? unquote(values.get("filename")!) : undefined;
  // An empty name is no name (a browser sends an empty file input as filename=""): such a part is a
  // file only by its type, application/octet-stream, as browsers send it.
  const filename = extended || plain || undefined;
  let mimeType = "text/plain";
  let charset = "utf-8";
  if (headers.contentType) {
    const [contentType, ...typeParams] = splitParameters(headers.contentType);
    if (contentType && contentType.includes("/")) mimeType = contentType.toLowerCase();
    for (const param of typeParams) {
      const equals = param.indexOf("=");
      if (equals > 0 && param.slice(0, equals).trim().toLowerCase() === "charset") charset = unquote(param.slice(equals + 1).trim()).toLowerCase();
    }
  }
  const name = values.has("name") ? unquote(values.get("name")!) : undefined;
  return { name, filename: filename === undefined ? undefined : basename(filename), mimeType, charset };
}

/** A file part's bytes, as the parser finds them; reading it lets the parser go on. */
class FilePart extends Readable {
  truncated = false;
  /** Called at this reader's next read: the parser's held write callback. */
  onRead: (() => void) | null = null;

  override _read(): void {
    const onRead = this.onRead;
    this.onRead = null;
    onRead?.();
  }
}

type State = "preamble" | "after-delimiter" | "headers" | "body" | "end";

export class MultipartParser extends Writable {
  private readonly limits: MultipartLimits;
  /** `\r\n--boundary`: what ends every part (and the preamble, once a CRLF is put before the body). */
  private readonly delimiter: Buffer;
  private state: State = "preamble";
  /** Bytes at a chunk's end that may be the start of the delimiter, kept for the next chunk. */
  private carry: Buffer = Buffer.alloc(0);
  /** After a delimiter: the bytes read of what follows it ("--", or spaces then CRLF). */
  private afterDelimiter = "";
  private headerBytes: Buffer[] = [];
  private headerLength = 0;
  private parts = 0;
  private files = 0;
  private fields = 0;
  /** The limits reached so far: each is reported once. */
  private readonly limitsReached = new Set<string>();
  /** The part being read: a file, a field, or one being dropped (null). */
  private file: FilePart | null = null;
  private fileBytes = 0;
  /** The file whose reader refused more during this write (its buffer is full). */
  private fullFile: FilePart | null = null;
  private field: { name: string | undefined; charset: string; chunks: Buffer[]; bytes: number; truncated: boolean } | null = null;

  constructor(options: { contentType: string; limits: MultipartLimits }) {
    super();
    this.limits = options.limits;
    this.delimiter = Buffer.from(`\r\n--${boundaryOf(options.contentType)}`, "latin1");
    // A body may start with its first delimiter, without the CRLF the delimiter begins with.
    this.carry = Buffer.from(CRLF);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.fullFile = null;
    let failure: Error | null = null;
    try {
      this.parse(chunk);
    } catch (error) {
      failure = error as Error;
    }
    if (failure) return callback(failure);
    // The reader of the file being written wants no more for now: go on when it reads. Only after a
    // push it refused: a write that gave the file nothing (a file past its limit, a chunk that is
    // all a possible delimiter's start) would wait for a read that may never be asked for.
    const full = this.fullFile as FilePart | null; // set by parse(), through data()
    if (full && full === this.file) {
      full.onRead = () => callback();
      return;
    }
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.state !== "end") return callback(new Error(this.state === "headers" ? "Malformed part header" : "Unexpected end of form"));
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const file = this.file;
    this.file = null;
    this.state = "end";
    if (file && !file.readableEnded) file.destroy(error ?? new Error("Unexpected end of file"));
    callback(error);
  }

  private parse(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.state !== "end") {
      switch (this.state) {
        case "preamble":
        case "body":
          at = this.scanBody(chunk, at);
          break;
        case "after-delimiter":
          at = this.readAfterDelimiter(chunk, at);
          break;
        case "headers":
          at = this.readHeaders(chunk, at);
          break;
      }
    }
  }

  /**
   * Part data (or preamble) from `chunk[at]` up to the next delimiter, passed on as views of the
   * chunk; returns where parsing goes on (after the delimiter, or the chunk's end).
   */
  private scanBody(chunk: Buffer, at: number): number {
    const size = this.delimiter.length;
    if (this.carry.length > 0) {
      // A delimiter may start in the bytes kept from the last chunk: look at them with enough of this one.
      const joined = Buffer.concat([this.carry, chunk.subarray(at, at + size - 1)]);
      const found = joined.indexOf(this.delimiter);
      if (found !== -1 && found < this.carry.length) {
        this.data(joined.subarray(0, found));
        const consumed = found + size - this.carry.length;
        this.carry = Buffer.alloc(0);
        this.delimiterFound();
        return at + consumed;
      }
      if (joined.length < this.carry.length + size - 1) {
        // This chunk is too short to tell: keep what may still be the delimiter's start.
        const keep = this.partialDelimiterStart(joined, 0);
        this.data(joined.subarray(0, keep));
        this.carry = Buffer.from(joined.subarray(keep));
        return chunk.length;
      }
      this.data(this.carry);
      this.carry = Buffer.alloc(0);
    }
    const found = chunk.indexOf(this.delimiter, at);
    if (found !== -1) {
      this.data(chunk.subarray(at, found));
      this.delimiterFound();
      return found + size;
    }
    const keep = this.partialDelimiterStart(chunk, at);
    this.data(chunk.subarray(at, keep));
    this.carry = Buffer.from(chunk.subarray(keep));
    return chunk.length;
  }

  /** Where the longest end of `bytes` (from `from` on) that begins the delimiter starts; `bytes.length` if none. */
  private partialDelimiterStart(bytes: Buffer, from: number): number {
    for (let start = Math.max(from, bytes.length - this.delimiter.length + 1); start < bytes.length; start++) {
      if (bytes[start] !== CR) continue;
      if (this.delimiter.subarray(0, bytes.length - start).equals(bytes.subarray(start))) return start;
    }
    return bytes.length;
  }

  /** Bytes of the current part: to the file's reader, into the field, or dropped. */
  private data(bytes: Buffer): void {
    if (bytes.length === 0 || this.state !== "body") return;
    if (this.file) {
      if (this.file.truncated) return;
      const room = this.limits.fileSize - this.fileBytes;
      const taken = bytes.length > room ? bytes.subarray(0, room) : bytes;
      this.fileBytes += taken.length;
      if (taken.length > 0 && !this.file.push(taken)) this.fullFile = this.file;
      if (this.fileBytes >= this.limits.fileSize) {
        this.file.truncated = true;
        this.file.emit("limit");
      }
    } else if (this.field && !this.field.truncated) {
      const room = this.limits.fieldSize - this.field.bytes;
      const taken = bytes.length > room ? bytes.subarray(0, room) : bytes;
      // Copied: a field is kept until its part ends, the chunk is not.
      this.field.chunks.push(Buffer.from(taken));
      this.field.bytes += taken.length;
      if (this.field.bytes >= this.limits.fieldSize) this.field.truncated = true;
    }
  }

  /** The current part (or the preamble) is over: finish it; what follows says whether another part comes. */
  private delimiterFound(): void {
    if (this.state === "body") {
      this.parts++;
      if (this.file) {
        this.file.push(null);
        this.file = null;
      } else if (this.field) {
        const { name, charset, chunks, bytes, truncated } = this.field;
        this.field = null;
        this.emit("field", name, decode(Buffer.concat(chunks, bytes), charset), { valueTruncated: truncated });
      }
      if (this.parts === this.limits.parts) this.limitReached("partsLimit");
    }
    this.state = "after-delimiter";
    this.afterDelimiter = "";
  }

  /** "--" ends the form; spaces or tabs then CRLF start a part's headers; anything else is malformed. */
  private readAfterDelimiter(chunk: Buffer, at: number): number {
    while (at < chunk.length) {
      const byte = chunk[at++]!;
      this.afterDelimiter += String.fromCharCode(byte);
      if (this.afterDelimiter === "--") {
        this.state = "end";
        return chunk.length;
      }
      if (this.afterDelimiter === "-") continue;
      if (byte === CR && /^[ \t]*\r$/.test(this.afterDelimiter)) continue;
      if (byte === LF && /^[ \t]*\r\n$/.test(this.afterDelimiter)) {
        this.state = "headers";
        // The CRLF just read starts the header block's search for an empty line.
        this.headerBytes = [CRLF];
        this.headerLength = CRLF.length;
        return at;
      }
      if ((byte === 32 || byte === 9) && /^[ \t]+$/.test(this.afterDelimiter) && this.afterDelimiter.length <= 64) continue;
      throw new Error("Malformed part header");
    }
    return at;
  }

  private readHeaders(chunk: Buffer, at: number): number {
    const take = chunk.subarray(at, at + MAX_HEADER_BYTES + HEADERS_END.length);
    // Only the new bytes are searched, with the few before them the empty line may start in: a block
    // sent a byte at a time costs no more than one sent at once.
    const before = Math.min(this.headerLength, HEADERS_END.length - 1);
    const window = before > 0 ? Buffer.concat([this.lastHeaderBytes(before), take]) : take;
    const foundInWindow = window.indexOf(HEADERS_END);
    const previous = this.headerLength;
    this.headerBytes.push(take);
    this.headerLength += take.length;
    if (foundInWindow === -1) {
      if (this.headerLength > MAX_HEADER_BYTES + HEADERS_END.length) throw new Error("Malformed part header");
      return at + take.length;
    }
    // Where the empty line starts in the whole block (which begins with the delimiter line's CRLF).
    const found = previous - before + foundInWindow;
    if (found > MAX_HEADER_BYTES + CRLF.length) throw new Error("Malformed part header");
    const block = Buffer.concat(this.headerBytes, this.headerLength);
    const headers = parseHeaders(new TextDecoder("utf-8").decode(block.subarray(CRLF.length, found)));
    this.headerBytes = [];
    this.headerLength = 0;
    if (!headers) throw new Error("Malformed part header");
    this.startPart(headers);
    return at + found + HEADERS_END.length - previous;
  }

  /** The last `count` bytes of the header block received so far. */
  private lastHeaderBytes(count: number): Buffer {
    const pieces: Buffer[] = [];
    for (let index = this.headerBytes.length - 1; index >= 0 && count > 0; index--) {
      const piece = this.headerBytes[index]!;
      const part = piece.subarray(Math.max(0, piece.length - count));
      pieces.unshift(part);
      count -= part.length;
    }
    return Buffer.concat(pieces);
  }

  private limitReached(event: "filesLimit" | "fieldsLimit" | "partsLimit"): void {
    if (this.limitsReached.has(event)) return;
    this.limitsReached.add(event);
    this.emit(event);
  }

  private startPart(headers: { disposition?: string; contentType?: string }): void {
    this.state = "body";
    if (this.parts >= this.limits.parts) return;
    const part = describePart(headers);
    if (!part) return;
    if (part.filename !== undefined || part.mimeType === "application/octet-stream") {
      if (this.files >= this.limits.files) return this.limitReached("filesLimit");
      this.files++;
      this.file = new FilePart();
      this.fileBytes = 0;
      this.emit("file", part.name, this.file, { filename: part.filename, mimeType: part.mimeType });
      return;
    }
    if (this.fields >= this.limits.fields) return this.limitReached("fieldsLimit");
    this.fields++;
    this.field = { name: part.name, charset: part.charset, chunks: [], bytes: 0, truncated: false };
  }
}
