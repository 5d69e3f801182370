import { describe, expect, it } from "vitest";
import { FORM_BODY_MESSAGES, isStorableValue, readBoundedText, readFieldsBody, readForm, readFormBody, withoutForgedIntent } from "./request-body";

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

describe("readFormBody", () => {
  const post = (body: BodyInit, contentType?: string) =>
    new Request("http://localhost/", { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });

  it("reads urlencoded and multipart forms, and an empty body as an empty form", async () => {
    const form = new FormData();
    form.set("nombre", "Ana Torres");
    const multipart = await readFormBody(new Request("http://localhost/", { method: "POST", body: form }));
    expect(multipart.ok && multipart.form.get("nombre")).toBe("Ana Torres");
    const urlencoded = await readFormBody(post("email=ana%40ejemplo.mx&nota=l%C3%ADnea%0Auno", "application/x-www-form-urlencoded"));
    expect(urlencoded.ok && urlencoded.form.get("nota")).toBe("línea\nuno");
    const empty = await readFormBody(new Request("http://localhost/", { method: "POST" }));
    expect(empty.ok && [...empty.form.keys()]).toEqual([]);
  });

  it("answers 415 for another content type and 400 for a body that does not parse", async () => {
    expect(await readFormBody(post('{"email":"a@b.mx"}', "application/json"))).toEqual({ ok: false, status: 415, message: FORM_BODY_MESSAGES.type });
    expect(await readFormBody(post("email=a", "text/plain"))).toMatchObject({ status: 415 });
    expect(await readFormBody(post("email=a"))).toMatchObject({ status: 415 });
    expect(await readFormBody(post("--x\r\nbasura", "multipart/form-data; boundary=x"))).toEqual({ ok: false, status: 400, message: FORM_BODY_MESSAGES.unreadable });
    expect(await readFormBody(post("--x\r\n", "multipart/form-data"))).toMatchObject({ status: 415 });
  });

  it("refuses NUL and other control characters in names and values, and file names no one gives", async () => {
    expect(await readFormBody(post("nombre=Ana%00", "application/x-www-form-urlencoded"))).toEqual({ ok: false, status: 400, message: FORM_BODY_MESSAGES.characters });
    expect(await readFormBody(post("a%00=1", "application/x-www-form-urlencoded"))).toMatchObject({ message: FORM_BODY_MESSAGES.characters });
    expect(await readFormBody(post("nota=%01", "application/x-www-form-urlencoded"))).toMatchObject({ message: FORM_BODY_MESSAGES.characters });
    for (const name of ["plano\u0000.pdf", `${"x".repeat(1_021)}.pdf`]) {
      const form = new FormData();
      form.set("archivo", new File(["%PDF-1.4"], name));
      expect(await readFormBody(new Request("http://localhost/", { method: "POST", body: form }))).toEqual({ ok: false, status: 400, message: FORM_BODY_MESSAGES.fileName });
    }
  });

  it("accepts a long but real file name (it is stored shortened)", async () => {
    const form = new FormData();
    form.set("archivo", new File(["%PDF-1.4"], `${"x".repeat(330)}.pdf`));
    expect(await readFormBody(new Request("http://localhost/", { method: "POST", body: form }))).toMatchObject({ ok: true });
  });

  it("refuses a conform intent its parser cannot apply, and lets the form's own through", async () => {
    for (const intent of ["no-es-json", "null", '{"type":"remove"}', '{"type":"remove","payload":{"name":"nombre","index":0}}']) {
      expect(await readFormBody(post(`nombre=Ana&__intent__=${encodeURIComponent(intent)}`, "application/x-www-form-urlencoded")), intent).toMatchObject({ status: 400 });
    }
    const own = await readFormBody(post(`lines[0].description=Brida&__intent__=${encodeURIComponent('{"type":"remove","payload":{"name":"lines","index":0}}')}`, "application/x-www-form-urlencoded"));
    expect(own.ok).toBe(true);
  });

  it("readForm throws the refusal as a response for the error page", async () => {
    const thrown: unknown = await readForm(post("{}", "application/json")).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ init: { status: 415 }, data: { statusCode: 415, message: FORM_BODY_MESSAGES.type } });
  });
});

describe("withoutForgedIntent", () => {
  it("drops an intent conform cannot apply, so a refused form can be parsed to be shown again", () => {
    const forged = new FormData();
    forged.set("nombre", "Ana");
    forged.set("__intent__", "no-es-json");
    expect([...withoutForgedIntent(forged).keys()]).toEqual(["nombre"]);
    const own = new FormData();
    own.set("__intent__", JSON.stringify({ type: "validate", payload: { name: "nombre" } }));
    expect(withoutForgedIntent(own).has("__intent__")).toBe(true);
  });
});

describe("isStorableValue", () => {
  it("finds NUL anywhere in a parsed JSON value", () => {
    expect(isStorableValue({ a: ["x", { b: "ok" }], n: 1, t: "línea\tuno\r\n" })).toBe(true);
    expect(isStorableValue({ a: ["x", { b: "no\u0000" }] })).toBe(false);
    expect(isStorableValue({ "a\u0000": 1 })).toBe(false);
  });
});
