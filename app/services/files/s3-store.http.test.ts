import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Stored files in S3-compatible storage (issue 17 §4, docs/decisions/0059) through the real
// production server over HTTP, against a real S3 server on loopback: the settings' `s3` is PATCHed
// in while the server runs (no restart); a quote request's CAD file then lands in the bucket, not
// on disk, and comes back byte for byte through PocketBase's files API; a product photo stored in
// the bucket and one stored on disk before the switch are both served; POST /api/settings/test/s3
// answers 204 with good settings and 400 with the storage server's reason otherwise, superusers only.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("s3-files-http"));

import { addProductImages } from "~/features/catalogue/image-uploads.server";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { png, productValues, uploaded } from "../../../tests/support/catalogue-fixtures";
import { stepFile } from "../../../tests/support/minimal-files";
import { startS3Server, type TestS3Server } from "../../../tests/support/s3-server";
import { sdkFailure } from "../../../tests/support/sdk-client";
import { agedFormToken, quoteFormData, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { expectSuperusersOnly, prepareSuperuserCallers, superuserCallers, type CallerName } from "../../../tests/support/superuser-clients";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { S3Bucket } from "./s3-bucket.server";

const LABEL = "s3-archivos";
const seed = { inBucket: "", onDisk: "" };
let s3: TestS3Server;
let server: TestServer | undefined;
let clients: Record<CallerName, PocketBase>;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function productWithPhoto(name: string, width: number): Promise<string> {
  const product = await createProduct(productValues({ active: true, name }));
  if (!product.ok) throw new Error("product not created");
  const added = await addProductImages(product.value.id, [uploaded("foto.png", await png(width, 480))], name);
  if (!added.ok) throw new Error("image not added");
  return product.value.id;
}

/** The bucket's stored files (keys under "files/") and their SHA-256. */
async function bucketFiles(): Promise<Map<string, string>> {
  const bucket = new S3Bucket(s3.config(), "files/");
  const found = new Map<string, string>();
  for await (const item of bucket.list()) found.set(item.key, sha256((await bucket.readBytes(item.key, 64 * 1024 * 1024))!));
  return found;
}

async function get(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(15_000) });
}

beforeAll(async () => {
  s3 = await startS3Server({ buckets: ["forja-archivos"] });
  server = await startTestServer({
    dataDir,
    env: { AUTH_SECRET: getAuthSecret() },
    prepare: async () => {
      await prepareSuperuserCallers(LABEL);
      // Stored before the switch: on disk (PGlite) or in the database (PostgreSQL).
      seed.onDisk = await productWithPhoto("Brida antes de S3", 640);
      // Stored while this process's environment points the files at the bucket.
      vi.stubEnv("S3_BUCKET", "forja-archivos");
      for (const [name, value] of Object.entries(s3.env())) vi.stubEnv(name, value);
      try {
        seed.inBucket = await productWithPhoto("Brida en S3", 720);
      } finally {
        vi.unstubAllEnvs();
      }
    },
  });
  clients = await superuserCallers(server.url, LABEL);
}, 360_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

describe("stored files in S3", () => {
  it("take the settings' s3 while the server runs, and never answer the secret", async () => {
    const patched = (await clients.admin.settings.update({ s3: s3.config() })) as Record<string, Record<string, unknown>>;
    expect(patched.s3).toEqual({ enabled: true, bucket: "forja-archivos", region: "us-east-1", endpoint: s3.endpoint, accessKey: "S3RVER", forcePathStyle: true });
    const settings = (await clients.admin.settings.getAll()) as Record<string, Record<string, unknown>>;
    expect(settings.s3).not.toHaveProperty("secret");
    expect((settings.backups as { s3: Record<string, unknown> }).s3).not.toHaveProperty("secret");
  });

  it("test/s3 answers 204 with good settings, 400 with the reason otherwise, to superusers only", async () => {
    const test = (client: PocketBase, filesystem: string) => client.send("/api/settings/test/s3", { method: "POST", body: { filesystem } });
    await expect(test(clients.admin, "storage")).resolves.toBeDefined();
    const response = await fetch(`${server!.url}/api/settings/test/s3`, {
      method: "POST",
      headers: { Authorization: clients.admin.authStore.token, "Content-Type": "application/json" },
      body: JSON.stringify({ filesystem: "storage" }),
    });
    expect(response.status).toBe(204);
    // The test object is gone again.
    let leftover = 0;
    for await (const item of new S3Bucket(s3.config(), "").list()) if (item.key.startsWith("forja_prueba")) leftover += 1;
    expect(leftover).toBe(0);

    const notEnabled = await sdkFailure(test(clients.admin, "backups"));
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.response.message).toBe("El almacenamiento S3 de los respaldos no está activado: actívelo y guarde los ajustes antes de probarlo.");
    const unknown = await sdkFailure(test(clients.admin, "disco"));
    expect(unknown.response).toMatchObject({ status: 400, data: { filesystem: { code: "validation_invalid_value", message: "Elija «storage» (los archivos) o «backups» (los respaldos)." } } });

    // A wrong access key and a missing bucket: the storage server's reason, in a Spanish message.
    await clients.admin.settings.update({ backups: { s3: { ...s3.config(), accessKey: "CLAVE-EQUIVOCADA" } } });
    const wrongKey = await sdkFailure(test(clients.admin, "backups"));
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.response.message).toMatch(/^No pudimos escribir un archivo de prueba en el almacenamiento S3 de los respaldos\. El servidor de almacenamiento respondió: InvalidAccessKeyId/);
    await clients.admin.settings.update({ backups: { s3: { accessKey: "S3RVER", bucket: "no-existe" } } });
    const missing = await sdkFailure(test(clients.admin, "backups"));
    expect(missing.response.message).toMatch(/El servidor de almacenamiento respondió: NoSuchBucket/);
    await clients.admin.settings.update({ backups: { s3: { enabled: false } } });

    await expectSuperusersOnly(clients, (client) => test(client, "storage"));
  });

  it("store a quote request's CAD file in the bucket (not on disk) and serve it back byte for byte", async () => {
    const before = await bucketFiles();
    const cad = stepFile();
    const email = `s3-${process.pid}@ejemplo.mx`;
    const response = await fetch(`${server!.url}/api/cotiza`, {
      method: "POST",
      body: quoteFormData(validQuoteFields({ email, formToken: agedFormToken("cotiza") }), [{ name: "soporte.step", bytes: cad }]),
      headers: { Origin: server!.url, "X-Forwarded-For": "10.95.0.1" },
      signal: AbortSignal.timeout(30_000),
    });
    expect(await response.json()).toMatchObject({ ok: true });

    // The file, and what the geometry job derives from it: all in the bucket, none on disk.
    const added = [...(await bucketFiles())].filter(([key]) => !before.has(key));
    expect(added.filter(([, digest]) => digest === sha256(cad))).toHaveLength(1);
    for (const [key] of added) expect(fs.existsSync(path.join(dataDir, "uploads", key)), key).toBe(false);
    if (server!.databaseUrl) {
      // On PostgreSQL: not in the database's file store either.
      const client = new pg.Client({ connectionString: server!.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: string }>("select count(*) from stored_files where path = any($1)", [added.map(([key]) => key)]);
        expect(rows[0]!.count).toBe("0");
      } finally {
        await client.end();
      }
    }

    const records = await clients.admin.collection("solicitudes").getFullList({ sort: "-created" });
    const record = records.find((item) => item.correo === email)!;
    const name = record.archivos[0] as string;
    const download = await get(clients.admin.files.getURL(record, name, { token: await clients.admin.files.getToken() }));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(cad))).toBe(true);
  });

  it("serve a product photo from the bucket, and one stored before the switch from where it was", async () => {
    const stored = await bucketFiles();
    for (const id of [seed.inBucket, seed.onDisk]) {
      const product = await clients.guest.collection("productos").getOne(id);
      const photo = await get(clients.guest.files.getURL(product, product.imagenes[0]));
      expect(photo.status, id).toBe(200);
      expect(photo.headers.get("content-type")).toBe("image/webp");
      const bytes = Buffer.from(await photo.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(100);
      // The bucket holds the one stored after the switch, byte for byte; the other is not in it.
      expect([...stored.values()].includes(sha256(bytes)), id).toBe(id === seed.inBucket);
    }
  });
});
