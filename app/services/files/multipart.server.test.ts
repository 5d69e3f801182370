import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseMultipartUpload, type UploadLimits } from "./multipart.server";

// The streaming multipart parser on real multipart bodies: undici serialises a real FormData with
// real Blobs/Files (and a real boundary) into the Request body, exactly as a browser does. Limits
// are small so the files stay small.

const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-multipart-test-"));
let tmpDir = "";
let run = 0;

beforeEach(() => {
  run += 1;
  tmpDir = path.join(root, String(run));
  fs.mkdirSync(tmpDir, { recursive: true });
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const limits = { maxFiles: 3, maxFileBytes: 1 * MiB, maxTotalBytes: 2 * MiB } satisfies UploadLimits;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const leftovers = () => fs.readdirSync(tmpDir);

function post(form: FormData): Request {
  return new Request("http://localhost/cotiza", { method: "POST", body: form });
}

function form(fields: Record<string, string>, files: { field?: string; name: string; bytes: Uint8Array; type?: string }[] = [], fieldsAfter: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const file of files) data.append(file.field ?? "files", new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }));
  for (const [name, value] of Object.entries(fieldsAfter)) data.append(name, value);
  return data;
}

describe("parseMultipartUpload", () => {
  it("stores each file under tmpDir with its size, sha256, head and tail, and returns the text fields", async () => {
    const big = randomBytes(200 * 1024); // larger than head + tail together
    const small = new Uint8Array(Buffer.from("ISO-10303-21;\nHEADER;\nENDSEC;\n"));
    const request = post(
      form(
        { name: "Ana Torres", description: "Soporte de aluminio para banda", certificates: "rohs" },
        [
          { name: "soporte.step", bytes: small },
          { name: "nube de puntos.stl", bytes: big },
        ],
        { certificates: "reach", "acentos-ñ": "Querétaro, México" },
      ),
    );
    expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);

    const result = await parseMultipartUpload(request, limits, tmpDir);
    if (!result.ok) throw new Error(result.message);

    expect(result.fields.get("name")).toBe("Ana Torres");
    expect(result.fields.get("description")).toBe("Soporte de aluminio para banda");
    expect(result.fields.getAll("certificates")).toEqual(["rohs", "reach"]);
    expect(result.fields.get("acentos-ñ")).toBe("Querétaro, México");
    expect(result.fields.get("files")).toBeNull();

    expect(result.files).toHaveLength(2);
    const byName = Object.fromEntries(result.files.map((file) => [file.name, file]));
    const step = byName["soporte.step"]!;
    expect(step.field).toBe("files");
    expect(step.size).toBe(small.length);
    expect(step.sha256).toBe(sha256(small));
    expect(Buffer.compare(step.head, Buffer.from(small))).toBe(0);
    expect(Buffer.compare(step.tail, Buffer.from(small))).toBe(0);

    const stl = byName["nube de puntos.stl"]!;
    expect(stl.size).toBe(big.length);
    expect(stl.sha256).toBe(sha256(big));
    expect(Buffer.compare(stl.head, big.subarray(0, 64 * 1024))).toBe(0);
    expect(Buffer.compare(stl.tail, big.subarray(big.length - 64 * 1024))).toBe(0);

    // Server-made names inside tmpDir, with exactly the bytes that were sent.
    for (const file of result.files) {
      expect(path.dirname(file.tmpPath)).toBe(tmpDir);
      expect(path.basename(file.tmpPath)).toMatch(/^\d+\.[0-9a-f-]{36}$/);
    }
    expect(fs.readFileSync(step.tmpPath).equals(Buffer.from(small))).toBe(true);
    expect(fs.readFileSync(stl.tmpPath).equals(big)).toBe(true);
    expect(leftovers().sort()).toEqual(result.files.map((file) => path.basename(file.tmpPath)).sort());
  });

  it("takes a CRC-32 instead of the sha256 when the limits ask for it, over every chunk of a large file (0080)", async () => {
    const big = randomBytes(700 * 1024); // many chunks, so the CRC is carried from one to the next
    const small = new Uint8Array(Buffer.from("ISO-10303-21;\nHEADER;\nENDSEC;\n"));
    const result = await parseMultipartUpload(post(form({ name: "Ana" }, [{ name: "grande.stl", bytes: big }, { name: "soporte.step", bytes: small }])), { ...limits, checksum: "crc32" }, tmpDir);
    if (!result.ok) throw new Error(result.message);
    const crc = (bytes: Uint8Array) => zlib.crc32(bytes).toString(16).padStart(8, "0");
    expect(result.files.map((file) => [file.name, file.size, file.crc32, "sha256" in file])).toEqual([
      ["grande.stl", big.length, crc(big), false],
      ["soporte.step", small.length, crc(small), false],
    ]);
    expect(fs.readFileSync(result.files[0]!.tmpPath).equals(big)).toBe(true);
  });

  it("keeps only the base name of a file name that carries a path", async () => {
    const result = await parseMultipartUpload(post(form({}, [{ name: "../../etc/passwd.step", bytes: new Uint8Array([1, 2, 3]) }])), limits, tmpDir);
    if (!result.ok) throw new Error(result.message);
    expect(result.files.map((file) => file.name)).toEqual(["passwd.step"]);
    expect(path.dirname(result.files[0]!.tmpPath)).toBe(tmpDir);
  });

  it("ignores an empty file input (no file chosen) and returns no files", async () => {
    const data = form({ name: "Ana" });
    data.append("files", new File([], "", { type: "application/octet-stream" }));
    const result = await parseMultipartUpload(post(data), limits, tmpDir);
    if (!result.ok) throw new Error(result.message);
    expect(result.files).toEqual([]);
    expect(result.fields.get("name")).toBe("Ana");
    expect(leftovers()).toEqual([]);
  });

  // The issue allows files of up to (≤) the limit; the parser's `limit` fires when a file *reaches* fileSize.
  it("accepts a file of exactly maxFileBytes", async () => {
    const exact = randomBytes(limits.maxFileBytes);
    const result = await parseMultipartUpload(post(form({}, [{ name: "justo.stl", bytes: exact }])), limits, tmpDir);
    if (!result.ok) throw new Error(result.message);
    expect(result.files[0]!.size).toBe(limits.maxFileBytes);
    expect(result.files[0]!.sha256).toBe(sha256(exact));
  });

  it("answers 413 naming the file that is over maxFileBytes, keeps the text fields and leaves no temporary file", async () => {
    const request = post(
      form(
        { name: "Ana Torres", email: "ana@ejemplo.mx" },
        [
          { name: "bueno.step", bytes: randomBytes(1024) },
          { name: "Carcasa grande.stl", bytes: randomBytes(limits.maxFileBytes + 1) },
        ],
        { description: "Texto escrito después de los archivos" },
      ),
    );
    const result = await parseMultipartUpload(request, limits, tmpDir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(413);
    expect(result.message).toBe("El archivo «Carcasa grande.stl» pasa de 1 MB, el máximo por archivo.");
    expect(result.fields.get("name")).toBe("Ana Torres");
    expect(result.fields.get("email")).toBe("ana@ejemplo.mx");
    expect(result.fields.get("description")).toBe("Texto escrito después de los archivos");
    expect(leftovers()).toEqual([]);
  });

  it("answers 413 when there are more files than maxFiles, keeping the fields and no temporary file", async () => {
    const files = Array.from({ length: limits.maxFiles + 1 }, (_, index) => ({ name: `pieza-${index + 1}.step`, bytes: randomBytes(100) }));
    const result = await parseMultipartUpload(post(form({ name: "Ana Torres" }, files)), limits, tmpDir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(413);
    expect(result.message).toBe(`Puede adjuntar hasta ${limits.maxFiles} archivos.`);
    expect(result.fields.get("name")).toBe("Ana Torres");
    expect(leftovers()).toEqual([]);
  });

  it("answers 413 when the files together pass maxTotalBytes, even though each is within its own limit", async () => {
    const files = [1, 2, 3].map((index) => ({ name: `parte-${index}.stl`, bytes: randomBytes(800 * 1024) }));
    const result = await parseMultipartUpload(post(form({ name: "Ana Torres" }, files)), limits, tmpDir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(413);
    expect(result.message).toBe("Los archivos suman más de 2 MB. Adjunte menos o más ligeros.");
    expect(result.fields.get("name")).toBe("Ana Torres");
    expect(leftovers()).toEqual([]);
  });

  it("answers 400 for a body that is not multipart, without touching the disk", async () => {
    const urlencoded = new Request("http://localhost/cotiza", { method: "POST", body: new URLSearchParams({ name: "Ana" }) });
    const json = new Request("http://localhost/cotiza", { method: "POST", body: JSON.stringify({ name: "Ana" }), headers: { "content-type": "application/json" } });
    const empty = new Request("http://localhost/cotiza", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" } });
    for (const request of [urlencoded, json, empty]) {
      const result = await parseMultipartUpload(request, limits, tmpDir);
      expect(result).toMatchObject({ ok: false, status: 400, message: "El formulario debe enviarse con sus archivos (multipart/form-data)." });
    }
    expect(leftovers()).toEqual([]);
  });

  // A body that ends without the closing boundary (a client that stops early) must give an answer,
  // not an uncaught "Unexpected end of form" from the file stream and a request that never finishes.
  it("answers 400 for a multipart body cut off in the middle of a file, leaving no temporary file", { timeout: 5_000 }, async () => {
    const body = [
      "--limite",
      'Content-Disposition: form-data; name="name"',
      "",
      "Ana Torres",
      "--limite",
      'Content-Disposition: form-data; name="files"; filename="cortado.step"',
      "Content-Type: application/octet-stream",
      "",
      "ISO-10303-21;\r\nHEADER;",
    ].join("\r\n");
    const request = new Request("http://localhost/cotiza", { method: "POST", body, headers: { "content-type": "multipart/form-data; boundary=limite" } });
    const result = await parseMultipartUpload(request, limits, tmpDir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.message).toBe("No pudimos leer el formulario completo. Intente enviarlo de nuevo.");
    expect(result.fields.get("name")).toBe("Ana Torres");
    expect(leftovers()).toEqual([]);
  });

  // Writes that give the file nothing (every byte past its limit, or a chunk that is all a possible
  // delimiter's start) must not wait for a read of the file that nobody will ask for.
  it("answers 413 for a file far over maxFileBytes sent in chunks of 30 000 bytes", { timeout: 20_000 }, async () => {
    const body = multipartBody("limite", [{ name: "name", value: "Ana Torres" }, { name: "files", filename: "grande.stl", bytes: randomBytes(20 * MiB) }]);
    const roomy = { maxFiles: 3, maxFileBytes: 2 * MiB, maxTotalBytes: 100 * MiB };
    const result = await parseMultipartUpload(streamedRequest(body, "limite", chunksOf(body, () => 30_000)), roomy, tmpDir);
    expect(result).toMatchObject({ ok: false, status: 413 });
    expect(leftovers()).toEqual([]);
  });

  it("reads a large file whole when some of its chunks are a lone CR", { timeout: 20_000 }, async () => {
    const bytes = randomBytes(8 * MiB);
    for (let at = 0; at < bytes.length; at += MiB) bytes[at + 70_000] = 13;
    const body = multipartBody("limite", [{ name: "files", filename: "pieza.stl", bytes }]);
    // 64 KiB chunks, and each CR placed above in a chunk of its own.
    const start = body.indexOf(bytes);
    const crs = new Set(Array.from({ length: 8 }, (_, index) => start + index * MiB + 70_000));
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; ) {
      const nextCr = [...crs].find((cr) => cr >= at && cr < at + 65_536);
      const end = nextCr === undefined ? at + 65_536 : nextCr === at ? at + 1 : nextCr;
      chunks.push(body.subarray(at, end));
      at = end;
    }
    expect(chunks.filter((chunk) => chunk.length === 1 && chunk[0] === 13)).toHaveLength(8);
    const big = { maxFiles: 1, maxFileBytes: 20 * MiB, maxTotalBytes: 20 * MiB };
    const result = await parseMultipartUpload(streamedRequest(body, "limite", chunks), big, tmpDir);
    if (!result.ok) throw new Error(result.message);
    expect(result.files[0]!.size).toBe(bytes.length);
    expect(result.files[0]!.sha256).toBe(sha256(bytes));
  });

  it("answers 400 for a body that ends inside a dropped file part (an empty file input), and the upload thread lives on", { timeout: 10_000 }, async () => {
    const cut = Buffer.concat([
      multipartBody("limite", [{ name: "name", value: "Ana Torres" }]).subarray(0, -"--limite--\r\n".length),
      Buffer.from('--limite\r\nContent-Disposition: form-data; name="files"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\nbytes sin fin'),
    ]);
    // Another upload on the same thread, half sent while the cut one is answered.
    const other = randomBytes(300 * 1024);
    const otherBody = multipartBody("otro", [{ name: "files", filename: "en-curso.step", bytes: other }]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) {
          controller.enqueue(new Uint8Array(otherBody.subarray(0, 100_000)));
          sent = 100_000;
          return;
        }
        await held;
        controller.enqueue(new Uint8Array(otherBody.subarray(sent)));
        controller.close();
      },
    });
    const inProgress = parseMultipartUpload(
      new Request("http://localhost/cotiza", { method: "POST", body: stream, duplex: "half", headers: { "content-type": "multipart/form-data; boundary=otro" } } as RequestInit),
      limits,
      tmpDir,
    );
    const result = await parseMultipartUpload(streamedRequest(cut, "limite", [cut]), limits, tmpDir);
    expect(result).toMatchObject({ ok: false, status: 400, message: "No pudimos leer el formulario completo. Intente enviarlo de nuevo." });
    release();
    const finished = await inProgress;
    if (!finished.ok) throw new Error(finished.message);
    expect(finished.files[0]!.sha256).toBe(sha256(other));
  });

  it("answers 400 when the client's upload stream fails half-way, leaving no temporary file", { timeout: 5_000 }, async () => {
    const boundary = "limite";
    const start = Buffer.from(
      [`--${boundary}`, 'Content-Disposition: form-data; name="name"', "", "Ana Torres", `--${boundary}`, 'Content-Disposition: form-data; name="files"; filename="pieza.stl"', "Content-Type: application/octet-stream", "", ""].join("\r\n"),
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent === 1) controller.enqueue(new Uint8Array(start));
        else if (sent <= 4) controller.enqueue(new Uint8Array(randomBytes(16 * 1024)));
        else controller.error(new Error("client went away"));
      },
    });
    const request = new Request("http://localhost/cotiza", { method: "POST", body, duplex: "half", headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } as RequestInit);
    const result = await parseMultipartUpload(request, limits, tmpDir);
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(leftovers()).toEqual([]);
  });

  // The files are parsed, hashed and written on one upload thread shared by every request, fed
  // chunk by chunk with at most 1 MiB waiting per upload: uploads at once must not mix.
  it("keeps several uploads at once apart, each larger than what may wait on the upload thread", async () => {
    const bodies = Array.from({ length: 4 }, () => randomBytes(limits.maxFileBytes));
    const results = await Promise.all(
      bodies.map((bytes, index) => parseMultipartUpload(post(form({ name: `Cliente ${index}` }, [{ name: `pieza-${index}.stl`, bytes }])), limits, tmpDir)),
    );
    results.forEach((result, index) => {
      if (!result.ok) throw new Error(result.message);
      expect(result.fields.get("name")).toBe(`Cliente ${index}`);
      expect(result.files).toHaveLength(1);
      const file = result.files[0]!;
      expect(file.name).toBe(`pieza-${index}.stl`);
      expect(file.sha256).toBe(sha256(bodies[index]!));
      expect(fs.readFileSync(file.tmpPath).equals(bodies[index]!)).toBe(true);
    });
    expect(leftovers()).toHaveLength(4);
  });

  it("returns the files in the order they were sent, even when a later small one is written first", async () => {
    const roomy = { maxFiles: 3, maxFileBytes: 16 * MiB, maxTotalBytes: 20 * MiB } satisfies UploadLimits;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const big = randomBytes(16 * MiB);
      const small = new Uint8Array(Buffer.from("solid pieza\nendsolid pieza\n"));
      const result = await parseMultipartUpload(post(form({}, [{ name: "grande.step", bytes: big }, { name: "chica.stl", bytes: small }, { name: "otra.stl", bytes: small }])), roomy, tmpDir);
      if (!result.ok) throw new Error(result.message);
      expect(result.files.map((file) => file.name)).toEqual(["grande.step", "chica.stl", "otra.stl"]);
      for (const file of result.files) fs.rmSync(file.tmpPath);
    }
  });

  it("answers 400 for a multipart content type without a boundary, leaving no temporary file", async () => {
    const request = new Request("http://localhost/cotiza", { method: "POST", body: "--x\r\n", headers: { "content-type": "multipart/form-data" } });
    const result = await parseMultipartUpload(request, limits, tmpDir);
    expect(result).toMatchObject({ ok: false, status: 400, message: "No pudimos leer el formulario completo. Intente enviarlo de nuevo." });
    expect(leftovers()).toEqual([]);
  });

  it("answers 400 for a text field longer than 64 KiB", async () => {
    const result = await parseMultipartUpload(post(form({ description: "a".repeat(64 * 1024 + 1) })), limits, tmpDir);
    expect(result).toMatchObject({ ok: false, status: 400, message: "Uno de los campos es demasiado largo." });
  });
});

/** A multipart body with `boundary`: text fields and files, in order, closed. */
function multipartBody(boundary: string, parts: ({ name: string; value: string } | { name: string; filename: string; bytes: Uint8Array })[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    if ("value" in part) pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    else pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(part.bytes), Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/** `body` cut into chunks of `size(index)` bytes. */
function chunksOf(body: Buffer, size: (index: number) => number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, index = 0; at < body.length; index++) {
    chunks.push(body.subarray(at, at + size(index)));
    at += size(index);
  }
  return chunks;
}

/** A POST whose body arrives as exactly these chunks, one per pull, as a socket hands them over. */
function streamedRequest(body: Buffer, boundary: string, chunks: Buffer[]): Request {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index === chunks.length) return controller.close();
      controller.enqueue(new Uint8Array(chunks[index++]!));
    },
  });
  expect(Buffer.concat(chunks).equals(body)).toBe(true);
  return new Request("http://localhost/cotiza", { method: "POST", body: stream, duplex: "half", headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } as RequestInit);
}
