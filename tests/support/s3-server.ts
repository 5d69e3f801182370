import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Config } from "~/services/files/s3-bucket.server";

// A real S3-compatible server on loopback (s3rver: S3's REST API over HTTP, objects on a temporary
// directory, one account), for the tests of S3 storage (issue 17 §4). It refuses an unknown access
// key (InvalidAccessKeyId) but does not check version-4 signatures, so a wrong secret goes unnoticed.

/** s3rver's built-in account. */
export const S3_TEST_CREDENTIALS = { accessKey: "S3RVER", secret: "S3RVER" } as const;

export interface TestS3Server {
  endpoint: string;
  /** The buckets that exist from the start. */
  buckets: string[];
  /** Settings for one of the buckets, in PocketBase's `s3` shape. */
  config(bucket?: string): S3Config;
  /** The environment variables that point Forja's stored files at a bucket. */
  env(bucket?: string): Record<string, string>;
  /** Where s3rver keeps the objects (to check them without the API). */
  directory: string;
  stop(): Promise<void>;
}

export async function startS3Server(options: { buckets?: string[] } = {}): Promise<TestS3Server> {
  const buckets = options.buckets ?? ["forja"];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "forja-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config = (bucket = buckets[0]!): S3Config => ({ enabled: true, bucket, region: "us-east-1", endpoint, ...S3_TEST_CREDENTIALS, forcePathStyle: true });
  return {
    endpoint,
    buckets,
    directory,
    config,
    env: (bucket = buckets[0]!) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY: S3_TEST_CREDENTIALS.accessKey,
      S3_SECRET: S3_TEST_CREDENTIALS.secret,
      S3_FORCE_PATH_STYLE: "true",
    }),
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
