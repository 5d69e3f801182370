import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";

// One S3-compatible bucket, seen through a key prefix (issue 17 §4): stored files live under
// "files/", backups under "backups/", so one bucket can hold both and neither lists the other.
// The connection settings are PocketBase's (`s3` and `backups.s3` in /api/settings). Checksums are
// only sent and checked where the S3 API requires them: S3-compatible servers (MinIO, R2, the tests'
// loopback server) do not all support the SDK's newer default checksums.

export interface S3Config {
  enabled: boolean;
  bucket: string;
  region: string;
  endpoint: string;
  accessKey: string;
  secret: string;
  forcePathStyle: boolean;
}

export interface S3ObjectInfo {
  key: string;
  size: number;
  modified: Date;
}

export interface S3Object {
  size: number;
  modified: Date;
  body: ReadableStream<Uint8Array>;
}

const clients = new Map<string, S3Client>();

/** One client per distinct configuration (a settings change makes a new one; the old one is closed). */
function clientFor(config: S3Config): S3Client {
  const id = JSON.stringify([config.endpoint, config.region, config.accessKey, config.secret, config.forcePathStyle]);
  let client = clients.get(id);
  if (!client) {
    for (const [other, old] of clients) {
      old.destroy();
      clients.delete(other);
    }
    client = new S3Client({
      endpoint: config.endpoint || undefined,
      region: config.region || "us-east-1",
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKey, secretAccessKey: config.secret },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
    });
    clients.set(id, client);
  }
  return client;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound";
}

/** A bucket's objects under one prefix, addressed by the key after the prefix. */
export class S3Bucket {
  constructor(
    readonly config: S3Config,
    readonly prefix: string,
  ) {}

  private get client(): S3Client {
    return clientFor(this.config);
  }

  private full(key: string): string {
    return `${this.prefix}${key}`;
  }

  /** Fails with the server's own error when the bucket cannot be reached or read. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
  }

  async putBytes(key: string, bytes: Uint8Array, contentType = "application/octet-stream"): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.config.bucket, Key: this.full(key), Body: bytes, ContentLength: bytes.byteLength, ContentType: contentType }));
  }

  /** Uploads a local file as it is read (never whole in memory). */
  async putFile(key: string, localPath: string, contentType = "application/octet-stream"): Promise<void> {
    const { size } = await fs.promises.stat(localPath);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.config.bucket, Key: this.full(key), Body: fs.createReadStream(localPath), ContentLength: size, ContentType: contentType }),
    );
  }

  async head(key: string): Promise<S3ObjectInfo | null> {
    try {
      const found = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.full(key) }));
      return { key, size: found.ContentLength ?? 0, modified: found.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** The object as a stream, or null when there is none. */
  async open(key: string): Promise<S3Object | null> {
    try {
      const found = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.full(key) }));
      if (!found.Body) return null;
      const body = Readable.toWeb(found.Body as Readable) as ReadableStream<Uint8Array>;
      return { size: found.ContentLength ?? 0, modified: found.LastModified ?? new Date(0), body };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** The object whole, when it is at most `maxBytes`; null when there is none or it is larger. */
  async readBytes(key: string, maxBytes: number): Promise<Buffer | null> {
    const info = await this.head(key);
    if (!info || info.size > maxBytes) return null;
    const found = await this.open(key);
    if (!found) return null;
    return Buffer.from(await new Response(found.body).arrayBuffer());
  }

  /** Writes the object to a local file (a backup being restored or checked). */
  async download(key: string, localPath: string): Promise<boolean> {
    const found = await this.open(key);
    if (!found) return false;
    await pipeline(Readable.fromWeb(found.body as NodeReadableStream<Uint8Array>), fs.createWriteStream(localPath));
    return true;
  }

  /** Removes objects; a missing one is no error (S3's DeleteObject answers 204 either way). */
  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.full(key) }));
  }

  /** The objects under the prefix (keys without it), page by page. */
  async *list(): AsyncGenerator<S3ObjectInfo> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: this.prefix, ContinuationToken: continuationToken }));
      for (const item of page.Contents ?? []) {
        if (!item.Key?.startsWith(this.prefix)) continue;
        yield { key: item.Key.slice(this.prefix.length), size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }
}

/** The message of an S3 failure, to tell staff what the storage server said. */
export function s3ErrorMessage(error: unknown): string {
  if (error instanceof S3ServiceException) return `${error.name}: ${error.message}`.slice(0, 300);
  if (error instanceof Error) return error.message.slice(0, 300);
  return String(error).slice(0, 300);
}
