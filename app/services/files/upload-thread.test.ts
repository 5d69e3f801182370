import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { FLUSH_EVERY_BYTES, TemporaryFile } from "./upload-thread";

// The upload thread's temporary-file writer on a real file: what it writes, its flushes, and that
// a destroy in the middle of a write closes the descriptor only once the write is over (a
// descriptor closed under a write in libuv's threads may be reused by another file first).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-temporal-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let count = 0;
const newPath = () => path.join(dir, `subida-${++count}`);

function written(file: TemporaryFile, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => file.write(chunk, (error) => (error ? reject(error) : resolve())));
}

describe("TemporaryFile", () => {
  it("writes every chunk in order, flushes each MiB, and refuses a file that exists", async () => {
    const flushes = vi.spyOn(fs, "fdatasync");
    const target = newPath();
    const file = new TemporaryFile(target);
    const chunks = Array.from({ length: 40 }, (_, index) => Buffer.alloc(64 * 1024, index));
    for (const chunk of chunks) file.write(chunk);
    await new Promise<void>((resolve, reject) => file.end(resolve).once("error", reject));
    await new Promise((resolve) => file.once("close", resolve));
    expect(fs.readFileSync(target).equals(Buffer.concat(chunks))).toBe(true);
    const total = chunks.length * 64 * 1024;
    expect(flushes.mock.calls.length).toBeGreaterThanOrEqual(Math.floor(total / (2 * FLUSH_EVERY_BYTES + 64 * 1024)));
    expect(flushes.mock.calls.length).toBeLessThanOrEqual(Math.floor(total / FLUSH_EVERY_BYTES));

    const again = new TemporaryFile(target);
    const failed = new Promise<NodeJS.ErrnoException>((resolve) => again.once("error", resolve));
    again.write(Buffer.from("otra"));
    expect((await failed).code).toBe("EEXIST");
  });

  it("closes its descriptor after the write under way when destroyed in the middle of it", async () => {
    const events: string[] = [];
    const writev = fs.writev;
    vi.spyOn(fs, "writev").mockImplementation(((fd: number, buffers: NodeJS.ArrayBufferView[], callback: (error: NodeJS.ErrnoException | null, bytes: number) => void) => {
      events.push(`writev ${fd}`);
      writev(fd, buffers, (error, bytes) => {
        events.push(`written ${fd}`);
        callback(error, bytes);
      });
    }) as typeof fs.writev);
    const close = fs.close;
    vi.spyOn(fs, "close").mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      events.push(`close ${fd}`);
      close(fd, callback);
    }) as typeof fs.close);

    const file = new TemporaryFile(newPath());
    await written(file, Buffer.alloc(1024, 1));
    // A write starts, and the upload is cut short before it ends.
    file.write(Buffer.alloc(512 * 1024, 2), () => {});
    file.destroy(new Error("subida interrumpida"));
    const closed = new Promise((resolve) => file.once("close", resolve));
    file.once("error", () => {});
    await closed;

    const fd = events[0]!.split(" ")[1];
    expect(events).toEqual([`writev ${fd}`, `written ${fd}`, `writev ${fd}`, `written ${fd}`, `close ${fd}`]);
  });
});
