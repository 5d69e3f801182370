import { describe, expect, it } from "vitest";
import { readBoundedText, readFieldsBody } from "./request-body";

// Bounded body reading: the limit holds while reading (a body without Content-Length included),
// and JSON objects, urlencoded forms and multipart forms (whose boundary keeps its case) are read.

function streamed(bytes: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const chunk = new Uint8Array(Math.min(16_384, bytes - sent)).fill(97);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return new Request("http://localhost/", { method: "POST", body, duplex: "half" } as RequestInit);
}

describe("readBoundedText", () => {
  it("stops past the limit, announced or not", async () => {
    expect(await readBoundedText(streamed(70_000), 65_536)).toBe("too-large");
    expect(await readBoundedText(new Request("http://localhost/", { method: "POST", body: "x", headers: { "content-length": "999999" } }), 1_000)).toBe("too-large");
    expect(await readBoundedText(streamed(1_000), 65_536)).toBe("a".repeat(1_000));
  });

  it("refuses bytes that are not UTF-8", async () => {
    expect(await readBoundedText(new Request("http://localhost/", { method: "POST", body: new Uint8Array([0xff, 0xfe]) }), 100)).toBeNull();
  });
});

describe("readFieldsBody", () => {
  const post = (body: BodyInit, type?: string) => new Request("http://localhost/", { method: "POST", body, headers: type ? { "content-type": type } : {} });

  it("reads a JSON object, an empty body, a urlencoded form and a multipart form", async () => {
    expect(await readFieldsBody(post('{"identity":"ana@ejemplo.mx"}', "application/json"))).toEqual({ identity: "ana@ejemplo.mx" });
    expect(await readFieldsBody(post(""))).toEqual({});
    expect(await readFieldsBody(post("a=1&b=dos", "application/x-www-form-urlencoded"))).toEqual({ a: "1", b: "dos" });
    const form = new FormData();
    form.set("password", "Secreta-1");
    form.set("archivo", new Blob(["x"]), "x.txt");
    expect(await readFieldsBody(new Request("http://localhost/", { method: "POST", body: form }))).toEqual({ password: "Secreta-1" });
  });

  it("answers null for what is not an object or a form, and too-large past the limit", async () => {
    expect(await readFieldsBody(post("[1,2]", "application/json"))).toBeNull();
    expect(await readFieldsBody(post("{roto", "application/json"))).toBeNull();
    expect(await readFieldsBody(post("--x\r\nbasura", "multipart/form-data; boundary=x"))).toBeNull();
    expect(await readFieldsBody(streamed(70_000))).toBe("too-large");
  });
});
