import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { DIRECT_BLOCK, FLUSH_EVERY_BYTES, STAGE_BYTES, STAGE_SLOTS, stagingPool, takesDirectWrites, TemporaryFile } from "./upload-thread";

// The upload thread's temporary-file writer on a real file, both ways (docs/decisions/0074): what
// it writes, its flushes through the page cache, its whole aligned blocks when written directly,
// and that a destroy in the middle of a write closes the descriptor and gives the staging area back
// only once the write is over (a descriptor closed under a write in libuv's threads may be reused by
// another file first; an area given back may be refilled before the disk has read it).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-temporal-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let count = 0;
const newPath = () => path.join(dir, `subida-${++count}`);

function written(file: TemporaryFile, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => file.write(chunk, (error) => (error ? reject(error) : resolve())));
}

describe("TemporaryFile", () => {
  it("through the page cache: writes every chunk in order, flushes each MiB, and refuses a file that exists", async () => {
    const flushes = vi.spyOn(fs, "fdatasync");
    const target = newPath();
    const file = new TemporaryFile(target, { direct: false });
    const chunks = Array.from({ length: 40 }, (_, index) => Buffer.alloc(64 * 1024, index));
    for (const chunk of chunks) file.write(chunk);
    await new Promise<void>((resolve, reject) => file.end(resolve).once("error", reject));
    await new Promise((resolve) => file.once("close", resolve));
    expect(file.mode).toBe("cached");
    expect(fs.readFileSync(target).equals(Buffer.concat(chunks))).toBe(true);
    const total = chunks.length * 64 * 1024;
    expect(flushes.mock.calls.length).toBeGreaterThanOrEqual(Math.floor(total / (2 * FLUSH_EVERY_BYTES + 64 * 1024)));
    expect(flushes.mock.calls.length).toBeLessThanOrEqual(Math.floor(total / FLUSH_EVERY_BYTES));

    const again = new TemporaryFile(target, { direct: false });
    const failed = new Promise<NodeJS.ErrnoException>((resolve) => again.once("error", resolve));
    again.write(Buffer.from("otra"));
    expect((await failed).code).toBe("EEXIST");
  });

  it("through the page cache: closes its descriptor after the write under way when destroyed in the middle of it", async () => {
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

    const file = new TemporaryFile(newPath(), { direct: false });
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

  it("directly, where the file system takes it: every byte in order, whatever the size and the chunks, in whole aligned blocks, with no flush", async () => {
    expect(await takesDirectWrites(dir)).toBe(directWritesWork(dir));
    // ext4 (this machine's and CI's disk) takes direct writes: there the tests below cannot pass by
    // returning early.
    if (process.platform === "linux" && fs.statfsSync(dir).type === EXT4_MAGIC) expect(directWritesWork(dir)).toBe(true);
    if (!directWritesWork(dir)) return;
    const flushes = vi.spyOn(fs, "fdatasync");
    const writes: { length: number; position: number }[] = [];
    const write = fs.write;
    vi.spyOn(fs, "write").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: number, callback: (error: NodeJS.ErrnoException | null, written: number) => void) => {
      writes.push({ length, position });
      write(fd, buffer, offset, length, position, callback);
    }) as typeof fs.write);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sizes = [0, 1, DIRECT_BLOCK - 1, DIRECT_BLOCK, DIRECT_BLOCK + 1, STAGE_BYTES - 1, STAGE_BYTES, STAGE_BYTES + 1, 5 * 1024 * 1024 + 1000];
    for (const size of sizes) {
      writes.length = 0;
      const content = Buffer.alloc(size);
      for (let index = 0; index < size; index++) content[index] = (index * 31 + (index >> 12)) & 255;
      const target = newPath();
      const file = new TemporaryFile(target);
      for (let at = 0; at < size; ) {
        const next = Math.min(size, at + 1 + Math.floor(random() * 70_000));
        file.write(content.subarray(at, next));
        at = next;
      }
      await new Promise<void>((resolve, reject) => file.end(resolve).once("error", reject));
      await new Promise((resolve) => file.once("close", resolve));
      expect(file.mode, `${size} bytes`).toBe("direct");
      expect(fs.readFileSync(target).equals(content), `${size} bytes`).toBe(true);
      expect(writes.every(({ length, position }) => length % DIRECT_BLOCK === 0 && position % DIRECT_BLOCK === 0), JSON.stringify(writes)).toBe(true);
      // A MiB at a time, or what waited at the end: 5 MiB and a bit take six to eleven writes.
      expect(writes.length, `${size} bytes`).toBeLessThanOrEqual(Math.ceil(size / (256 * 1024)) + 1);
      expect(stagingPool.inUse).toBe(0);
    }
    expect(flushes).not.toHaveBeenCalled();
  });

  it("gives a file the same permissions whichever way it is written", async () => {
    const direct = newPath();
    const cached = newPath();
    for (const [target, directly] of [[direct, true], [cached, false]] as const) {
      const file = new TemporaryFile(target, { direct: directly });
      await new Promise<void>((resolve, reject) => file.end(Buffer.alloc(5000, 1), resolve).once("error", reject));
      await new Promise((resolve) => file.once("close", resolve));
    }
    expect(fs.statSync(direct).mode & 0o777).toBe(fs.statSync(cached).mode & 0o777);
  });

  it("directly: refuses a file that exists and gives its staging area back", async () => {
    if (!directWritesWork(dir)) return;
    const target = newPath();
    fs.writeFileSync(target, "antes");
    const file = new TemporaryFile(target);
    const failed = new Promise<NodeJS.ErrnoException>((resolve) => file.once("error", resolve));
    file.write(Buffer.from("otra"));
    expect((await failed).code).toBe("EEXIST");
    expect(fs.readFileSync(target, "utf8")).toBe("antes");
    expect(stagingPool.inUse).toBe(0);
  });

  it("through the page cache when every staging area is taken, directly again once one is given back", async () => {
    if (!directWritesWork(dir)) return;
    const taken = Array.from({ length: STAGE_SLOTS }, () => stagingPool.take()!);
    expect(taken.every(Boolean)).toBe(true);
    const content = Buffer.alloc(300_000, 5);
    const extra = new TemporaryFile(newPath());
    await new Promise<void>((resolve, reject) => extra.end(content, resolve).once("error", reject));
    expect(extra.mode).toBe("cached");
    stagingPool.give(taken.pop()!.slot);
    const target = newPath();
    const next = new TemporaryFile(target);
    await new Promise<void>((resolve, reject) => next.end(content, resolve).once("error", reject));
    await new Promise((resolve) => next.once("close", resolve));
    expect(next.mode).toBe("direct");
    expect(fs.readFileSync(target).equals(content)).toBe(true);
    for (const { slot } of taken) stagingPool.give(slot);
    expect(stagingPool.inUse).toBe(0);
  });

  it("through the page cache on a file system that refuses direct writes", async () => {
    const other = fs.mkdtempSync(path.join(dir, "sin-directo-"));
    const open = fs.promises.open;
    vi.spyOn(fs.promises, "open").mockImplementation(((file: fs.PathLike, flags: number | string, mode?: number) => {
      if (typeof flags === "number" && flags & fs.constants.O_DIRECT) return Promise.reject(Object.assign(new Error("EINVAL"), { code: "EINVAL" }));
      return open(file, flags, mode);
    }) as typeof fs.promises.open);
    expect(await takesDirectWrites(other)).toBe(false);
    const target = path.join(other, "subida");
    const file = new TemporaryFile(target);
    await new Promise<void>((resolve, reject) => file.end(Buffer.alloc(10_000, 3), resolve).once("error", reject));
    expect(file.mode).toBe("cached");
    expect(fs.readFileSync(target).equals(Buffer.alloc(10_000, 3))).toBe(true);
    // Nothing of the probe is left beside the uploads.
    expect(fs.readdirSync(other)).toEqual(["subida"]);
  });

  it("asks again when the probe failed for a reason other than the file system's refusal (the directory not there yet)", async () => {
    if (!directWritesWork(dir)) return;
    const later = path.join(dir, "despues");
    expect(await takesDirectWrites(later)).toBe(false);
    fs.mkdirSync(later);
    expect(await takesDirectWrites(later)).toBe(true);
    expect(fs.readdirSync(later)).toEqual([]);
  });

  it("directly: closes its descriptor and gives its staging area back after the write under way when destroyed in the middle of it", async () => {
    if (!directWritesWork(dir)) return;
    const events: string[] = [];
    const write = fs.write;
    vi.spyOn(fs, "write").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: number, callback: (error: NodeJS.ErrnoException | null, written: number) => void) => {
      events.push(`write ${fd}`);
      write(fd, buffer, offset, length, position, (error, bytes) => {
        events.push(`written ${fd} ${stagingPool.inUse}`);
        callback(error, bytes);
      });
    }) as typeof fs.write);
    const close = fs.close;
    vi.spyOn(fs, "close").mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      events.push(`close ${fd} ${stagingPool.inUse}`);
      close(fd, callback);
    }) as typeof fs.close);

    const file = new TemporaryFile(newPath());
    await written(file, Buffer.alloc(1024, 1));
    // A staging area's worth: its write starts, and the upload is cut short before it ends.
    file.write(Buffer.alloc(STAGE_BYTES, 2), () => {});
    await new Promise((resolve) => setImmediate(resolve));
    file.destroy(new Error("subida interrumpida"));
    const closed = new Promise((resolve) => file.once("close", resolve));
    file.once("error", () => {});
    await closed;

    const fd = events[0]!.split(" ")[1];
    expect(events).toEqual([`write ${fd}`, `written ${fd} 1`, `close ${fd} 0`]);
  });
});

/** statfs's type for ext2/3/4. */
const EXT4_MAGIC = 0xef53;

/** Whether `dir` takes an O_DIRECT write of one aligned block, tried here without the writer's code. */
function directWritesWork(dir: string): boolean {
  const probe = path.join(dir, "prueba-directa");
  try {
    const fd = fs.openSync(probe, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_DIRECT, 0o600);
    try {
      const memory = new WebAssembly.Memory({ initial: 1 });
      return fs.writeSync(fd, Buffer.from(memory.buffer, 0, DIRECT_BLOCK), 0, DIRECT_BLOCK, 0) === DIRECT_BLOCK;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { force: true });
  }
}
