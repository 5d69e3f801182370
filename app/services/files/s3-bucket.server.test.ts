import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type TestS3Server } from "../../../tests/support/s3-server";
import { S3Bucket, s3ErrorMessage } from "./s3-bucket.server";

// The bucket wrapper against a real S3-compatible server on loopback.

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server({ buckets: ["forja"] });
});
afterAll(async () => {
  await s3.stop();
});

describe("S3Bucket", () => {
  it("stores, reads, lists and removes objects under its prefix only", async () => {
    const files = new S3Bucket(s3.config(), "files/");
    const backups = new S3Bucket(s3.config(), "backups/");
    await files.putBytes("2026/11/a", new Uint8Array([1, 2, 3]));
    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "forja-s3b-")), "b.zip");
    fs.writeFileSync(local, Buffer.alloc(200_000, 7));
    await backups.putFile("uno.zip", local);

    expect((await files.readBytes("2026/11/a", 10))?.toJSON().data).toEqual([1, 2, 3]);
    expect(await files.readBytes("2026/11/a", 2)).toBeNull();
    expect(await files.open("2026/11/missing")).toBeNull();
    expect((await files.head("2026/11/a"))?.size).toBe(3);

    const listed = async (bucket: S3Bucket) => {
      const found: [string, number][] = [];
      for await (const item of bucket.list()) found.push([item.key, item.size]);
      return found;
    };
    expect(await listed(files)).toEqual([["2026/11/a", 3]]);
    expect(await listed(backups)).toEqual([["uno.zip", 200_000]]);

    const copy = `${local}.copia`;
    expect(await backups.download("uno.zip", copy)).toBe(true);
    expect(fs.readFileSync(copy).equals(fs.readFileSync(local))).toBe(true);

    await files.remove(["2026/11/a", "2026/11/never-there"]);
    expect(await listed(files)).toEqual([]);
    expect(await listed(backups)).toEqual([["uno.zip", 200_000]]);
  });

  it("fails with the server's reason when the bucket or the key is wrong", async () => {
    await expect(new S3Bucket(s3.config(), "files/").check()).resolves.toBeUndefined();
    const wrongBucket = new S3Bucket({ ...s3.config(), bucket: "no-existe" }, "files/");
    await expect(wrongBucket.check()).rejects.toThrow();
    const wrongKey = new S3Bucket({ ...s3.config(), accessKey: "OTRA-CLAVE" }, "files/");
    const failure = await wrongKey.putBytes("x", new Uint8Array([1])).catch((error: unknown) => error);
    expect(s3ErrorMessage(failure)).toMatch(/InvalidAccessKeyId/);
  });
});
