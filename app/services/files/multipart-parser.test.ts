import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartParser, type MultipartLimits } from "./multipart-parser";

// The upload thread's multipart parser against busboy (the parser it replaced, kept as a
// development dependency for this comparison) on generated forms cut into random chunks: the same
// fields, the same files byte for byte, the same limits reached, the same bodies refused. Then what
// busboy does not cover the same way: backpressure, a malformed delimiter, header limits.

type Event =
  | ["field", string | undefined, string, boolean]
  | ["file", string | undefined, string | undefined, string, number, string, boolean]
  | ["filesLimit"]
  | ["fieldsLimit"]
  | ["partsLimit"];

interface Outcome {
  events: Event[];
  failed: boolean;
}

const GENEROUS: MultipartLimits = { files: 10, fileSize: 1 << 30, fields: 200, fieldSize: 64 * 1024, parts: 300 };

/** Feeds `chunks` to a parser that has the busboy-like events; what it reported, in order. */
function run(parser: NodeJS.EventEmitter & { write(chunk: Buffer, callback: (error?: Error | null) => void): boolean; end(): void; destroy(error?: Error): void }, chunks: Buffer[]): Promise<Outcome> {
  const events: Event[] = [];
  const files: Promise<void>[] = [];
  parser.on("field", (name: string | undefined, value: string, info: { valueTruncated: boolean }) => events.push(["field", name, value, info.valueTruncated]));
  parser.on("file", (name: string | undefined, stream: Readable, info: { filename: string | undefined; mimeType: string }) => {
    const event: Event = ["file", name, info.filename, info.mimeType, 0, "", false];
    events.push(event);
    const hash = createHash("sha256");
    let limited = false;
    stream.on("limit", () => (limited = true));
    files.push(
      new Promise((resolve) => {
        stream.on("data", (chunk: Buffer) => {
          hash.update(chunk);
          event[4] += chunk.length;
        });
        const settle = () => {
          event[5] = hash.digest("hex");
          event[6] = limited;
          resolve();
        };
        stream.once("end", settle);
        stream.once("error", () => {
          event[5] = "error";
          resolve();
        });
      }),
    );
  });
  for (const name of ["filesLimit", "fieldsLimit", "partsLimit"] as const) parser.on(name, () => events.push([name]));
  return new Promise((resolve) => {
    let failed = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      void Promise.all(files).then(() => resolve({ events, failed }));
    };
    parser.on("error", () => {
      failed = true;
      finish();
    });
    parser.on("finish", finish);
    parser.on("close", finish);
    let index = 0;
    const next = () => {
      if (failed) return;
      if (index === chunks.length) return parser.end();
      parser.write(chunks[index++]!, (error) => (error ? undefined : next()));
    };
    next();
  });
}

const ours = (contentType: string, limits: MultipartLimits, chunks: Buffer[]) => run(new MultipartParser({ contentType, limits }), chunks);
const theirs = (contentType: string, limits: MultipartLimits, chunks: Buffer[]) =>
  run(busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8", limits }) as never, chunks);

let seed = 20261130;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

const WORDS = ["Laura", "Benítez", "año", "piñón", "acero 1018", "--", "\r\n", "línea\r\notra", "«pieza»", "tolerancia ±0.05", "", "Ω", "💡"];

/** Bytes that come close to the delimiter without being it: CR LF, dashes, the boundary less its last character. */
function trickyBytes(boundary: string, size: number): Buffer {
  const pieces: Buffer[] = [];
  let length = 0;
  while (length < size) {
    const piece = pick([
      () => Buffer.from(Array.from({ length: between(1, 3000) }, () => between(0, 255))),
      () => Buffer.from(`\r\n--${boundary.slice(0, between(0, boundary.length - 1))}`),
      () => Buffer.from("\r\n"),
      () => Buffer.from("\r"),
      () => Buffer.from("--"),
      () => Buffer.from(`--${boundary}`),
      () => Buffer.alloc(between(1, 70_000), between(0, 255)),
    ])();
    pieces.push(piece);
    length += piece.length;
  }
  // A real delimiter inside a file would end it there: break each one (the part starts after a CRLF).
  const bytes = Buffer.concat([Buffer.from("\r\n"), ...pieces]).subarray(0, size + 2);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  for (let at = bytes.indexOf(delimiter); at !== -1; at = bytes.indexOf(delimiter, at)) bytes[at + 2] = 0x58;
  return bytes.subarray(2);
}

function randomBoundary(): string {
  return pick([
    () => `----WebKitFormBoundary${Array.from({ length: 16 }, () => pick("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""))).join("")}`,
    () => `----geckoformboundary${createHash("md5").update(String(random())).digest("hex")}`,
    () => "x",
    () => "----forjabench",
  ])();
}

interface Generated {
  contentType: string;
  body: Buffer;
}

function generateForm(): Generated {
  const boundary = randomBoundary();
  const parts: Buffer[] = [];
  if (random() < 0.3) parts.push(Buffer.from(`preámbulo que se ignora\r\n`));
  const count = between(0, 8);
  for (let index = 0; index < count; index++) {
    const name = pick(["name", "email", "description", "files", "nombre_ñ", "quantity"]);
    if (random() < 0.45) {
      const filename = pick(["soporte.step", "año 2026.stp", "C:\\planos\\brida.pdf", "carpeta/pieza.stl", ""]);
      const type = pick(["application/octet-stream", "model/step", "application/pdf", ""]);
      const header = `Content-Disposition: form-data; name="${name}"; filename="${filename.replace(/\\/g, "\\\\")}"${type ? `\r\nContent-Type: ${type}` : ""}`;
      parts.push(Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`), trickyBytes(boundary, pick([0, 1, between(2, 5000), between(5000, 300_000)])), Buffer.from("\r\n"));
    } else {
      const value = Array.from({ length: between(0, 6) }, () => pick(WORDS)).join(" ");
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--`));
  if (random() < 0.5) parts.push(Buffer.from(`\r\n${random() < 0.5 ? "epílogo" : ""}`));
  const quoted = random() < 0.3;
  return { contentType: `multipart/form-data; boundary=${quoted ? `"${boundary}"` : boundary}`, body: Buffer.concat(parts) };
}

/** The body in chunks of random sizes: single bytes, a few bytes, socket-sized, or all at once. */
function chunked(body: Buffer): Buffer[] {
  const style = pick(["tiny", "small", "socket", "whole"] as const);
  if (style === "whole") return [Buffer.from(body)];
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const size = style === "tiny" ? between(1, 3) : style === "small" ? between(1, 200) : between(1, 65_536);
    chunks.push(Buffer.from(body.subarray(at, at + size)));
    at += size;
  }
  return chunks;
}

describe("MultipartParser", () => {
  it("reads generated forms, cut into random chunks, exactly as busboy does", async () => {
    for (let round = 0; round < 250; round++) {
      const { contentType, body } = generateForm();
      const chunks = chunked(body);
      const expected = await theirs(contentType, GENEROUS, chunks);
      expect(expected.failed, `round ${round}: busboy read the form`).toBe(false);
      expect(await ours(contentType, GENEROUS, chunks.map((chunk) => Buffer.from(chunk))), `round ${round}`).toEqual(expected);
    }
  }, 120_000);

  it("reaches the same limits as busboy (file size, field size, files, fields, parts)", async () => {
    for (let round = 0; round < 150; round++) {
      const { contentType, body } = generateForm();
      const limits: MultipartLimits = {
        files: between(0, 3),
        fileSize: pick([1, 100, 4096, 70_000, 1 << 30]),
        fields: between(0, 4),
        fieldSize: pick([1, 10, 64 * 1024]),
        parts: pick([1, 2, 5, 300]),
      };
      const chunks = chunked(body);
      const expected = await theirs(contentType, limits, chunks);
      expect(await ours(contentType, limits, chunks.map((chunk) => Buffer.from(chunk))), `round ${round}: ${JSON.stringify(limits)}`).toEqual(expected);
    }
  }, 120_000);

  it("refuses a body cut short anywhere before its closing delimiter, as busboy does, and fails the file being read", async () => {
    for (let round = 0; round < 150; round++) {
      const { contentType, body } = generateForm();
      const end = body.lastIndexOf(Buffer.from("--", "latin1"));
      const cut = body.subarray(0, between(0, Math.max(0, end - 1)));
      const chunks = chunked(cut);
      const expected = await theirs(contentType, GENEROUS, chunks);
      expect(expected.failed).toBe(true);
      // The same fields and whole files before the cut; a file cut short ends in an error, never whole.
      const mine = await ours(contentType, GENEROUS, chunks.map((chunk) => Buffer.from(chunk)));
      // (How many bytes of it were passed on before the error does not matter: it is refused.)
      const cutShort = (outcome: Outcome) => ({ ...outcome, events: outcome.events.map((event) => (event[0] === "file" && event[5] === "error" ? event.with(4, -1) : event)) });
      expect(cutShort(mine), `round ${round}: ${cut.length} of ${body.length} bytes`).toEqual(cutShort(expected));
    }
  }, 120_000);

  it("reads the boundary from the content type, quoted or not, and refuses other types", () => {
    expect(boundaryOf("multipart/form-data; boundary=----WebKitFormBoundaryAbC123")).toBe("----WebKitFormBoundaryAbC123");
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; BOUNDARY="a b;c"')).toBe("a b;c");
    expect(() => boundaryOf("application/json")).toThrow();
    expect(() => boundaryOf("multipart/form-data")).toThrow();
    expect(() => boundaryOf(`multipart/form-data; boundary=${"x".repeat(71)}`)).toThrow();
    expect(() => new MultipartParser({ contentType: "text/plain", limits: GENEROUS })).toThrow();
  });

  it("decodes file names: RFC 5987 filename*, escapes, Windows paths", async () => {
    const boundary = "----limite";
    const body = Buffer.from(
      [
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.step"; filename*=UTF-8''pi%C3%B1%C3%B3n%20grande.step\r\n\r\nuno\r\n`,
        `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="C:\\\\planos\\\\año.pdf"\r\n\r\ndos\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="nota"; filename="com\\"illa.txt"\r\n\r\ntres\r\n`,
        `--${boundary}--\r\n`,
      ].join(""),
    );
    const { events, failed } = await ours(`multipart/form-data; boundary=${boundary}`, GENEROUS, [body]);
    expect(failed).toBe(false);
    expect(events.map((event) => event[2])).toEqual(["piñón grande.step", "año.pdf", 'com"illa.txt']);
  });

  it("refuses a delimiter followed by anything but CRLF or «--», and headers that are not headers or too long", async () => {
    const boundary = "----limite";
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const refused = [
      `--${boundary}X\r\nContent-Disposition: form-data; name="a"\r\n\r\nuno\r\n--${boundary}--`,
      `--${boundary}\r\nsin dos puntos\r\n\r\nuno\r\n--${boundary}--`,
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\nX-Relleno: ${"r".repeat(17 * 1024)}\r\n\r\nuno\r\n--${boundary}--`,
      `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\nX-Relleno: ${"r".repeat(20 * 1024)}`,
    ];
    for (const body of refused) expect((await ours(contentType, GENEROUS, chunked(Buffer.from(body)))).failed, body.slice(0, 80)).toBe(true);
    // Spaces after a delimiter are allowed (RFC 2046), and a part without headers is dropped.
    const accepted = `--${boundary}  \r\n\r\nsin encabezados\r\n--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nuno\r\n--${boundary}--`;
    expect(await ours(contentType, GENEROUS, [Buffer.from(accepted)])).toEqual({ events: [["field", "a", "uno", false]], failed: false });
  });

  it("passes file bytes on as views of the body's chunks, and holds the write until a slow reader reads", async () => {
    const boundary = "----limite";
    const parser = new MultipartParser({ contentType: `multipart/form-data; boundary=${boundary}`, limits: GENEROUS });
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.bin"\r\n\r\n`);
    const filePart = new Promise<Readable>((resolve) => parser.once("file", (_name: string, stream: Readable) => resolve(stream)));
    await new Promise<void>((resolve, reject) => parser.write(head, (error) => (error ? reject(error) : resolve())));
    const stream = await filePart;
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let written = false;
    parser.write(chunk, () => (written = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBe(false);
    const first: Buffer = stream.read();
    expect(first.buffer).toBe(chunk.buffer);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written).toBe(true);
    const ended = new Promise((resolve) => stream.once("end", resolve));
    stream.resume();
    parser.end(Buffer.from(`\r\n--${boundary}--\r\n`));
    await ended;
  });
});
