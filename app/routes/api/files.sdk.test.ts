import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// PocketBase's files API (docs/decisions/0016) through the official `pocketbase` SDK, unchanged,
// against the real production server over HTTP: product photos (public while the product is
// active, thumbs, download), a solicitud's attachment and a quote's PDF (only with a file token
// whose account the record's view rule lets see it), tokens that die with their session or their
// time, and malformed requests that never reach a 500. The server runs on this file's DATA_DIR, so
// the files `prepare` stores (on disk with PGlite, in PostgreSQL with TEST_DATABASE_URL) and the
// auth secret are the server's.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("files-sdk"));

import { addProductImages } from "~/features/catalogue/image-uploads.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { createSolicitud } from "~/features/solicitudes/create.server";
import { quoteRequestSchema } from "~/features/solicitudes/forms";
import { signFileToken } from "~/services/files/file-tokens.server";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { png, productValues, uploaded } from "../../../tests/support/catalogue-fixtures";
import { pdfFile, peek } from "../../../tests/support/minimal-files";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { validQuoteFields } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { matrixClients, sdkClient, sdkFailure } from "../../../tests/support/sdk-client";

const REQUEST_TIMEOUT_MS = 15_000;
const PASSWORD = "Fresadora-CNC-42";
const STAFF = { name: "Personal Archivos", email: `personal-arch-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const A = { name: "Sofía Treviño", email: `sofia-arch-${process.pid}@ejemplo.mx`, id: "" };
const B = { name: "Pablo Ibarra", email: `pablo-arch-${process.pid}@ejemplo.mx`, id: "" };
const NOT_FOUND = { status: 404, message: "The requested resource wasn't found.", data: {} };
// Every stored file: a sandboxed origin that runs and loads nothing (docs/decisions/0036).
const FILE_CSP = "sandbox; default-src 'none'";
/** RFC 6266/5987 Content-Disposition of a plain ASCII name. */
const disposition = (kind: "inline" | "attachment", name: string) => `${kind}; filename="${name}"; filename*=UTF-8''${name}`;
const ATTACHMENT = Buffer.from(pdfFile());

const seed = { activeId: "", inactiveId: "", solicitudId: "", sentQuoteId: "", draftQuoteId: "", quoteBId: "" };

let server: TestServer | undefined;
const pb = {} as Record<"guest" | "a" | "b" | "staff", PocketBase>;

async function prepare(): Promise<void> {
  await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
  A.id = (await registeredCustomer(A.name, A.email, PASSWORD)).id;
  B.id = (await registeredCustomer(B.name, B.email, PASSWORD)).id;

  for (const [key, active] of [
    ["activeId", true],
    ["inactiveId", false],
  ] as const) {
    const product = await createProduct(productValues({ active }));
    if (!product.ok) throw new Error("product not created");
    seed[key] = product.value.id;
    // 1200 × 800: WebP variants 320, 640, 1024 and 1200 wide.
    const added = await addProductImages(product.value.id, [uploaded("foto.png", await png(1200, 800))], "Perno de anclaje");
    if (!added.ok) throw new Error("image not added");
  }

  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.writeFileSync(tmpPath, ATTACHMENT);
  const file = { field: "files", name: "plano soporte.pdf", tmpPath, crc32: zlib.crc32(ATTACHMENT).toString(16).padStart(8, "0"), ...peek(ATTACHMENT) };
  const value = quoteRequestSchema().parse(validQuoteFields({ name: A.name, email: A.email, quantity: "40", formToken: `arch-${process.pid}` }));
  const solicitud = await createSolicitud({ type: "cotizacion", value, files: [file], token: value.formToken, ip: "127.0.0.1", userAgent: "vitest", userId: A.id });
  if (!solicitud.ok) throw new Error("solicitud not created");
  seed.solicitudId = solicitud.value.id;

  seed.sentQuoteId = (await createTestQuote({ name: A.name, email: A.email, userId: A.id })).id;
  seed.draftQuoteId = (await createTestQuote({ name: A.name, email: A.email, userId: A.id }, { send: false })).id;
  seed.quoteBId = (await createTestQuote({ name: B.name, email: B.email, userId: B.id })).id;
}

const client = (): PocketBase => sdkClient(server!.url);

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

async function expectNotFound(url: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await get(url, headers);
  expect(response.status, url).toBe(404);
  expect(await response.json()).toEqual(NOT_FOUND);
}

const failure = sdkFailure;

beforeAll(async () => {
  server = await startTestServer({ prepare, dataDir });
  Object.assign(pb, await matrixClients(server.url, { a: A, b: B, customerPassword: PASSWORD, staff: STAFF }));
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("product photos: public while the product is active", { timeout: 60_000 }, () => {
  let product: RecordModel;
  beforeAll(async () => {
    product = await pb.guest.collection("productos").getOne(seed.activeId);
  });

  it("serves the photo a record names, as PocketBase serves a public file", async () => {
    expect(product.imagenes).toEqual([expect.stringMatching(/^[0-9a-f-]{36}\.webp$/)]);
    const url = pb.guest.files.getURL(product, product.imagenes[0]);
    expect(url).toBe(`${server!.url}/api/files/pbc_productos/${seed.activeId}/${product.imagenes[0]}`);
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(["content-type", "content-disposition", "content-security-policy", "x-content-type-options", "cache-control"].map((name) => [name, response.headers.get(name)]))).toEqual({
      "content-type": "image/webp",
      "content-disposition": disposition("inline", product.imagenes[0]),
      "content-security-policy": FILE_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "max-age=2592000, stale-while-revalidate=86400",
    });
    const body = await bytesOf(response);
    expect(Number(response.headers.get("content-length"))).toBe(body.length);
    // The original is the widest variant kept.
    expect(await sharp(body).metadata()).toMatchObject({ format: "webp", width: 1200, height: 800 });
    // By collection name too, and with ?download=1 as an attachment.
    const byName = await get(`${server!.url}/api/files/productos/${seed.activeId}/${product.imagenes[0]}`);
    expect((await bytesOf(byName)).equals(body)).toBe(true);
    const download = await get(pb.guest.files.getURL(product, product.imagenes[0], { download: true }));
    expect(download.headers.get("content-disposition")).toBe(disposition("attachment", product.imagenes[0]));
    expect((await bytesOf(download)).equals(body)).toBe(true);
  });

  it("makes the field's thumb sizes (PocketBase's formats) and gives the original for any other", async () => {
    const name = product.imagenes[0] as string;
    const thumb = async (size: string) => {
      const response = await get(pb.guest.files.getURL(product, name, { thumb: size }));
      expect(response.status, size).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      const body = await bytesOf(response);
      const { width, height } = await sharp(body).metadata();
      return { width, height, disposition: response.headers.get("content-disposition"), length: Number(response.headers.get("content-length")) === body.length };
    };
    expect(await thumb("100x100")).toEqual({ width: 100, height: 100, disposition: disposition("inline", `100x100_${name}`), length: true });
    expect(await thumb("100x100t")).toMatchObject({ width: 100, height: 100 });
    expect(await thumb("300x300f")).toMatchObject({ width: 300, height: 200 });
    expect(await thumb("0x300")).toMatchObject({ width: 450, height: 300 });
    // A stored width is that variant as it is.
    expect(await thumb("320x0")).toEqual({ width: 320, height: 213, disposition: disposition("inline", `320x0_${name}`), length: true });
    // Sizes the field does not list, and anything that is not a size: the original, as PocketBase.
    for (const other of ["77x77", "0x0", "99999x99999", "abc", "100x100x", ""]) {
      expect(await thumb(other), other).toEqual({ width: 1200, height: 800, disposition: disposition("inline", name), length: true });
    }
  });

  it("an inactive product's photos: 404 for a guest and a customer, served privately to staff", async () => {
    const inactive = await pb.staff.collection("productos").getOne(seed.inactiveId);
    const name = inactive.imagenes[0] as string;
    const url = pb.guest.files.getURL(inactive, name);
    await expectNotFound(url);
    await expectNotFound(url, { Authorization: pb.a.authStore.token });
    await expectNotFound(pb.a.files.getURL(inactive, name, { token: await pb.a.files.getToken() }));
    for (const response of [await get(url, { Authorization: pb.staff.authStore.token }), await get(pb.staff.files.getURL(inactive, name, { token: await pb.staff.files.getToken() }))]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(await sharp(await bytesOf(response)).metadata()).toMatchObject({ width: 1200 });
    }
  });

  it("a name the record does not hold is a 404, even a real image of another product", async () => {
    const inactive = await pb.staff.collection("productos").getOne(seed.inactiveId);
    await expectNotFound(`${server!.url}/api/files/productos/${seed.activeId}/${inactive.imagenes[0]}`);
    await expectNotFound(`${server!.url}/api/files/productos/${seed.activeId}/${randomUUID()}.webp`);
  });
});

describe("file tokens for protected files", { timeout: 60_000 }, () => {
  it("POST /api/files/token: a token for a signed-in account, PocketBase's 401 for a guest or a bad token", async () => {
    const token = await pb.a.files.getToken();
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
    expect(payload).toMatchObject({ id: A.id, type: "file", collectionId: "_pb_users_auth_" });
    expect(payload.exp - payload.iat).toBe(180);
    const refused = await failure(pb.guest.files.getToken());
    expect(refused.status).toBe(401);
    expect(refused.response).toEqual({ status: 401, message: "The request requires valid record authorization token.", data: {} });
    const forged = await fetch(`${server!.url}/api/files/token`, { method: "POST", headers: { Authorization: `${pb.a.authStore.token}x` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(forged.status).toBe(401);
  });

  it("a solicitud's attachment: with the owner's or staff's file token, byte for byte; never without, nor with another customer's", async () => {
    const record = await pb.a.collection("solicitudes").getOne(seed.solicitudId);
    const name = record.archivos[0] as string;
    expect(name).toMatch(/^[0-9a-f-]{36}_plano_soporte\.pdf$/);
    for (const who of [pb.a, pb.staff]) {
      const response = await get(who.files.getURL(record, name, { token: await who.files.getToken() }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      // A PDF is not a picture: never shown in place (decision record 0036), even without ?download.
      expect(response.headers.get("content-disposition")).toBe(disposition("attachment", name));
      expect(response.headers.get("content-security-policy")).toBe(FILE_CSP);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect((await bytesOf(response)).equals(ATTACHMENT)).toBe(true);
    }
    const plain = pb.a.files.getURL(record, name);
    await expectNotFound(plain);
    // The auth token itself is not a file token, neither in the header nor as ?token=.
    await expectNotFound(plain, { Authorization: pb.a.authStore.token });
    await expectNotFound(pb.a.files.getURL(record, name, { token: pb.a.authStore.token }));
    await expectNotFound(pb.b.files.getURL(record, name, { token: await pb.b.files.getToken() }));
    const download = await get(pb.a.files.getURL(record, name, { token: await pb.a.files.getToken(), download: true }));
    expect(download.headers.get("content-disposition")).toBe(disposition("attachment", name));
  });

  it("a quote's PDF: the owner's sent quote and staff; not another's, nor the owner's unsent draft", async () => {
    const quote = await pb.a.collection("cotizaciones").getOne(seed.sentQuoteId);
    expect(quote.pdf).toBe(`${quote.numero}.pdf`);
    for (const who of [pb.a, pb.staff]) {
      const response = await get(who.files.getURL(quote, quote.pdf, { token: await who.files.getToken() }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const body = await bytesOf(response);
      expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(Number(response.headers.get("content-length"))).toBe(body.length);
    }
    await expectNotFound(pb.b.files.getURL(quote, quote.pdf, { token: await pb.b.files.getToken() }));
    await expectNotFound(pb.guest.files.getURL(quote, quote.pdf));
    const draft = await pb.staff.collection("cotizaciones").getOne(seed.draftQuoteId);
    await expectNotFound(pb.a.files.getURL(draft, draft.pdf, { token: await pb.a.files.getToken() }));
    expect((await get(pb.staff.files.getURL(draft, draft.pdf, { token: await pb.staff.files.getToken() }))).status).toBe(200);
    const quoteB = await pb.staff.collection("cotizaciones").getOne(seed.quoteBId);
    await expectNotFound(pb.a.files.getURL(quoteB, quoteB.pdf, { token: await pb.a.files.getToken() }));
  });

  it("an expired file token, or one signed with another key, opens nothing", async () => {
    const record = await pb.a.collection("solicitudes").getOne(seed.solicitudId);
    const name = record.archivos[0] as string;
    const sid = JSON.parse(Buffer.from(pb.a.authStore.token.split(".")[1]!, "base64url").toString("utf8")).sid as string;
    const session = { id: A.id, collection: "users" as const, sessionId: sid, sessionExpiresAt: new Date(Date.now() + 86_400_000) };
    // The server's secret is this file's DATA_DIR/auth-secret: a token signed here is one the server made.
    const fresh = signFileToken(session, { secret: getAuthSecret() });
    expect((await get(pb.a.files.getURL(record, name, { token: fresh }))).status).toBe(200);
    const expired = signFileToken(session, { secret: getAuthSecret(), now: new Date(Date.now() - 181_000) });
    await expectNotFound(pb.a.files.getURL(record, name, { token: expired }));
    await expectNotFound(pb.a.files.getURL(record, name, { token: signFileToken(session, { secret: "otra-clave" }) }));
  });

  it("a file token dies with its session: signing out everywhere ends it before it expires", async () => {
    const a2 = client();
    await a2.collection("users").authWithPassword(A.email, PASSWORD);
    const record = await a2.collection("solicitudes").getOne(seed.solicitudId);
    const url = a2.files.getURL(record, record.archivos[0], { token: await a2.files.getToken() });
    expect((await get(url)).status).toBe(200);

    const signIn = await fetch(`${server!.url}/api/sesion/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server!.url },
      body: JSON.stringify({ email: A.email, password: PASSWORD }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(signIn.status).toBe(200);
    const revoke = await fetch(`${server!.url}/api/sesion/revoke-sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server!.url, authorization: `Bearer ${signIn.headers.get("set-auth-token")}` },
      body: "{}",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(revoke.status).toBe(200);

    await expectNotFound(url);
    expect((await failure(a2.files.getToken())).status).toBe(401);
    // A's other client signed in before: its session is gone too, so sign in again for later tests.
    await pb.a.collection("users").authWithPassword(A.email, PASSWORD);
  });
});

describe("bad input is a 404 (or 400), never a 500", { timeout: 60_000 }, () => {
  it("traversal, NUL bytes, long or odd names, unknown collections, bad ids, tokens and thumbs", async () => {
    const product = await pb.guest.collection("productos").getOne(seed.activeId);
    const image = product.imagenes[0] as string;
    const base = `${server!.url}/api/files`;
    const long = "a".repeat(300);
    const paths = [
      `/productos/${seed.activeId}/..%2f..%2fauth-secret`,
      `/productos/${seed.activeId}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/productos/${seed.activeId}/%2e%2e%2fauth-secret`,
      `/productos/..%2f${seed.activeId}/${image}`,
      `/productos/${seed.activeId}/${image}%00`,
      `/productos/${seed.activeId}/%00`,
      `/productos/${seed.activeId}%00/${image}`,
      `/productos/${seed.activeId}/${long}.webp`,
      `/productos/${seed.activeId}/${"b".repeat(4000)}`,
      `/productos/${long}/${image}`,
      `/productos/no-es-un-id/${image}`,
      `/productos/${randomUUID()}/${image}`,
      `/nada/${seed.activeId}/${image}`,
      `/${long}/${seed.activeId}/${image}`,
      `/_superusers/${seed.activeId}/${image}`,
      `/solicitudes/${seed.solicitudId}/..%5c..%5cauth-secret`,
      `/solicitudes/${seed.solicitudId}/${randomUUID()}_plano.pdf?token=${"x".repeat(5000)}`,
      `/solicitudes/${seed.solicitudId}/x?token=a.b.c`,
      `/solicitudes/${seed.solicitudId}/x?token=%00`,
      `/cotizaciones/${seed.sentQuoteId}/%E0%A4%A?token=a`,
      `/cotizaciones/${seed.sentQuoteId}/${encodeURIComponent("ñ.pdf")}`,
      `/productos/${seed.activeId}/${image}?thumb=${"9".repeat(500)}x1`,
      `/productos/${seed.activeId}/${image}?thumb=%00`,
      `/productos/${seed.activeId}/${image}?download=%00&thumb=-1x-1`,
    ];
    for (const suffix of paths) {
      const response = await get(base + suffix);
      expect([200, 400, 404], suffix).toContain(response.status);
      await response.arrayBuffer();
    }
    // The image itself is still there after all that.
    expect((await get(`${base}/productos/${seed.activeId}/${image}`)).status).toBe(200);
    // Other methods on the download: PocketBase's 405 body, never a 500.
    const posted = await fetch(`${base}/productos/${seed.activeId}/${image}`, { method: "POST", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(posted.status).toBeLessThan(500);
    const token = await fetch(`${base}/token`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(token.status).toBe(405);
  });
});
