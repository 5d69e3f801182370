import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256AndSize, sha256OfBytes, sha256OfStream } from "./checksum.server";

const expected = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function streamOf(bytes: Uint8Array, chunk = 100_000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + chunk));
      at += chunk;
    },
  });
}

describe("checksums of stored files", () => {
  it("hashes bytes in memory a slice at a time, letting the event loop turn between slices", async () => {
    const bytes = randomBytes(3.5 * 1024 * 1024);
    let turns = 0;
    let going = true;
    const spin = () => {
      turns += 1;
      if (going) setImmediate(spin);
    };
    setImmediate(spin);
    const hashed = await sha256OfBytes(bytes);
    going = false;
    expect(hashed).toBe(expected(bytes));
    // Four slices: the loop turned between them (a single update would let it turn once at most).
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(await sha256OfBytes(new Uint8Array())).toBe(expected(new Uint8Array()));
  });

  it("hashes a stream chunk by chunk, with its size", async () => {
    const bytes = randomBytes(1_234_567);
    expect(await sha256AndSize(streamOf(bytes))).toEqual({ sha256: expected(bytes), size: bytes.length });
    expect(await sha256OfStream(streamOf(bytes, 7))).toBe(expected(bytes));
  });
});
