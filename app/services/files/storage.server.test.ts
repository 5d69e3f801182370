import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeRegExp as escape, syncOf, traced } from "../../../tests/support/strace";
import { cleanTmpUploads, newTmpUploadPath, TMP_UPLOAD_MAX_IDLE_MS, uploadsTmpDir } from "./storage.server";

// Durability of stored files (issue 17 §6, docs/decisions/0044): the real system calls are watched
// with strace, and the temporary-upload sweep is run against real files and real processes.


describe("the temporary-upload sweep", () => {
  let sleeper: ReturnType<typeof spawn> | undefined;
  afterAll(() => {
    sleeper?.kill();
  });

  it("removes a dead process's uploads at once and abandoned ones after the idle time, never one being received", async () => {
    const dir = uploadsTmpDir();
    for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { force: true, recursive: true });
    // A process that is gone: spawn one, let it end, use its pid.
    const ended = spawnSync(process.execPath, ["-e", "0"]);
    const deadPid = ended.pid!;
    sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const livePid = sleeper.pid!;

    const ours = newTmpUploadPath(dir);
    const oursIdle = newTmpUploadPath(dir);
    const dead = path.join(dir, `${deadPid}.4b1d6e1c-0000-4000-8000-000000000001`);
    const live = path.join(dir, `${livePid}.4b1d6e1c-0000-4000-8000-000000000002`);
    const liveIdle = path.join(dir, `${livePid}.4b1d6e1c-0000-4000-8000-000000000003`);
    const unnamed = path.join(dir, "4b1d6e1c-0000-4000-8000-000000000004");
    for (const file of [ours, oursIdle, dead, live, liveIdle, unnamed]) fs.writeFileSync(file, "parte");
    const longAgo = new Date(Date.now() - TMP_UPLOAD_MAX_IDLE_MS - 60_000);
    fs.utimesSync(oursIdle, longAgo, longAgo);
    fs.utimesSync(liveIdle, longAgo, longAgo);

    expect(path.basename(ours)).toMatch(new RegExp(`^${process.pid}\\.`));
    expect(await cleanTmpUploads()).toBe(3);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(ours), path.basename(live), path.basename(unnamed)].sort());
  });
});

/**
 * The line where the call starting at `start` ends: the same line, or, when another thread's call
 * came in between ("<unfinished ...>"), that thread's "<... resumed>" line.
 */
function endOf(lines: string[], start: number): number {
  if (!lines[start]!.includes("<unfinished ...>")) return start;
  const pid = lines[start]!.split(" ")[0];
  for (let at = start + 1; at < lines.length; at += 1) if (lines[at]!.startsWith(`${pid} `) && lines[at]!.includes("resumed>")) return at;
  return -1;
}

/** Each call on one line: a call strace split (`<unfinished ...>`, then `<... x resumed>`) joined at its end. */
function wholeCalls(lines: string[]): string[] {
  const open = new Map<string, string>();
  const calls: string[] = [];
  for (const line of lines) {
    const pid = line.split(" ")[0]!;
    if (line.endsWith("<unfinished ...>")) open.set(pid, line.slice(0, -"<unfinished ...>".length).trimEnd());
    else if (/^\d+\s+<\.\.\. \w+ resumed>/.test(line) && open.has(pid)) {
      calls.push(open.get(pid)! + line.replace(/^\d+\s+<\.\.\. \w+ resumed>/, ""));
      open.delete(pid);
    } else calls.push(line);
  }
  return calls;
}

describe("stored files reach the disk before anything points at them", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "forja-fsync-")));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("an upload: the file is synced, renamed into a synced new directory, and that directory synced after the rename", async () => {
    const trace = await traced(
      `import fs from "node:fs";
       import { diskFileStore } from "~/services/files/disk-store.server";
       import { newTmpUploadPath, uploadsTmpDir } from "~/services/files/storage.server";
       const tmp = newTmpUploadPath(uploadsTmpDir());
       fs.writeFileSync(tmp, "contenido del plano");
       await diskFileStore.putFile("2031/05/subido", tmp);
       await diskFileStore.putBytes("2031/06/escrito", new TextEncoder().encode("variante"));`,
      dataDir,
    );
    const uploads = path.join(dataDir, "uploads");
    const log = trace.lines.join("\n");

    // putFile: data of the temporary file, then the new directories, then the rename, then the directory.
    const tmpSync = trace.index(new RegExp(`f(data)?sync\\(\\d+<${escape(path.join(uploads, ".tmp"))}/\\d+\\.[0-9a-f-]+>\\) = 0`));
    expect(tmpSync, log).toBeGreaterThanOrEqual(0);
    const rename = trace.index(new RegExp(`rename(at2?)?\\(.*${escape(path.join(uploads, "2031/05/subido"))}`), tmpSync);
    expect(rename, `the rename comes after the file's sync\n${log}`).toBeGreaterThan(tmpSync);
    for (const dir of ["2031", "2031/05"]) {
      const synced = trace.index(syncOf(path.join(uploads, dir)), tmpSync);
      expect(synced, `${dir} is synced before the rename\n${log}`).toBeGreaterThan(tmpSync);
      expect(synced).toBeLessThan(rename);
    }
    expect(trace.index(syncOf(uploads), tmpSync), "the uploads directory, which gained 2031, is synced").toBeLessThan(rename);
    expect(trace.index(syncOf(path.join(uploads, "2031/05")), rename), "the directory is synced after the rename").toBeGreaterThan(rename);

    // putBytes: created, its data synced, then its directory.
    const created = trace.index(new RegExp(`openat\\(.*${escape(path.join(uploads, "2031/06/escrito"))}.*O_CREAT.*O_EXCL`));
    expect(created, log).toBeGreaterThanOrEqual(0);
    const dataSynced = trace.index(syncOf(path.join(uploads, "2031/06/escrito")), created);
    expect(dataSynced, log).toBeGreaterThan(created);
    expect(trace.index(syncOf(path.join(uploads, "2031/06")), dataSynced), log).toBeGreaterThan(dataSynced);
  }, 90_000);

  it("uploads stored at once: each rename is covered by a directory sync that started after it, and they share those syncs", async () => {
    const files = 8;
    const trace = await traced(
      `import fs from "node:fs";
       import { diskFileStore } from "~/services/files/disk-store.server";
       import { newTmpUploadPath, uploadsTmpDir } from "~/services/files/storage.server";
       await diskFileStore.putFile("2031/07/primero", (() => { const tmp = newTmpUploadPath(uploadsTmpDir()); fs.writeFileSync(tmp, "primero"); return tmp; })());
       const tmps = Array.from({ length: ${files} }, (_, index) => {
         const tmp = newTmpUploadPath(uploadsTmpDir());
         fs.writeFileSync(tmp, "plano " + index);
         return tmp;
       });
       await Promise.all(tmps.map((tmp, index) => diskFileStore.putFile("2031/07/pieza-" + index, tmp)));`,
      dataDir,
    );
    const month = path.join(dataDir, "uploads", "2031/07");
    const log = trace.lines.join("\n");
    // A sync of the month's directory, from the line where it starts (strace splits a call other threads interrupt).
    const syncStart = new RegExp(`fsync\\(\\d+<${escape(month)}>`);
    const first = trace.index(new RegExp(`rename(at2?)?\\(.*${escape(path.join(month, "primero"))}`));
    expect(first, log).toBeGreaterThanOrEqual(0);
    const afterFirst = trace.index(syncStart, first);
    expect(afterFirst, log).toBeGreaterThan(first);
    for (let index = 0; index < files; index += 1) {
      const started = trace.index(new RegExp(`rename(at2?)?\\(.*${escape(path.join(month, `pieza-${index}`))}`), afterFirst);
      expect(started, `pieza-${index} is renamed\n${log}`).toBeGreaterThan(afterFirst);
      const rename = endOf(trace.lines, started);
      expect(trace.lines[rename], log).toMatch(/\)\s+= 0$/);
      expect(trace.index(syncStart, rename), `a sync of the directory starts after pieza-${index}'s rename\n${log}`).toBeGreaterThan(rename);
    }
    const syncs = trace.lines.slice(afterFirst + 1).filter((line) => syncStart.test(line)).length;
    expect(syncs, log).toBeGreaterThan(0);
    expect(syncs, `${files} renames at once share the directory's syncs\n${log}`).toBeLessThan(files);
  }, 90_000);

  it("a month directory removed after its first file (a restore, by hand) is made again, durably, for the next one", async () => {
    const trace = await traced(
      `import fs from "node:fs";
       import path from "node:path";
       import { diskFileStore } from "~/services/files/disk-store.server";
       import { newTmpUploadPath, uploadsDir, uploadsTmpDir } from "~/services/files/storage.server";
       const upload = (text) => { const tmp = newTmpUploadPath(uploadsTmpDir()); fs.writeFileSync(tmp, text); return tmp; };
       await diskFileStore.putFile("2032/01/antes", upload("antes"));
       fs.rmSync(path.join(uploadsDir(), "2032"), { recursive: true });
       await diskFileStore.putFile("2032/01/despues", upload("después"));
       if (fs.readFileSync(path.join(uploadsDir(), "2032/01/despues"), "utf8") !== "después") throw new Error("lost");
       fs.rmSync(path.join(uploadsDir(), "2032"), { recursive: true });
       await diskFileStore.putBytes("2032/01/variante", new TextEncoder().encode("variante"));
       if (fs.readFileSync(path.join(uploadsDir(), "2032/01/variante"), "utf8") !== "variante") throw new Error("lost");`,
      dataDir,
    );
    const uploads = path.join(dataDir, "uploads");
    const log = trace.lines.join("\n");
    // Each time: 2032 made again (synced in uploads), 2032/01 made again (synced in 2032), then the file.
    let from = trace.index(new RegExp(`rename(at2?)?\\(.*${escape(path.join(uploads, "2032/01/antes"))}`));
    expect(from, log).toBeGreaterThanOrEqual(0);
    for (const name of ["despues", "variante"]) {
      // The call that made it (a first attempt, before the directory was made again, failed with ENOENT).
      const made = trace.index(new RegExp(`(rename(at2?)?|openat)\\(.*${escape(path.join(uploads, "2032/01", name))}.* = \\d+`), from + 1);
      expect(made, `${name} is stored\n${log}`).toBeGreaterThan(from);
      for (const [dir, parent] of [["2032", ""], ["2032/01", "2032"]]) {
        const created = trace.index(new RegExp(`mkdir(at)?\\(.*"${escape(path.join(uploads, dir))}".* = 0`), from + 1);
        expect(created, `${dir} is made again before ${name}\n${log}`).toBeGreaterThan(from);
        expect(created, log).toBeLessThan(made);
        const synced = trace.index(syncOf(path.join(uploads, parent)), created);
        expect(synced, `${parent || "uploads"} is synced after ${dir} is made, before ${name}\n${log}`).toBeGreaterThan(created);
        expect(synced, log).toBeLessThan(made);
      }
      from = made;
    }
  }, 90_000);

  it("an upload being received: its temporary file reaches the disk while the body still arrives, written directly in whole blocks", async () => {
    const trace = await traced(
      `import { parseMultipartUpload } from "~/services/files/multipart.server";
       import { uploadsTmpDir } from "~/services/files/storage.server";
       // The upload thread from its source (this script is bundled elsewhere, without the build).
       process.env.UPLOAD_WORKER_FILE = "app/services/files/upload-thread.ts";
       const boundary = "----forjaprueba";
       const size = 5 * 1024 * 1024 + 1000;
       const body = Buffer.concat([
         Buffer.from(\`--\${boundary}\\r\\nContent-Disposition: form-data; name="files"; filename="soporte.step"\\r\\n\\r\\n\`),
         Buffer.alloc(size, 59),
         Buffer.from(\`\\r\\n--\${boundary}--\\r\\n\`),
       ]);
       // In 64 KiB chunks, as a socket hands a body over.
       let at = 0;
       const stream = new ReadableStream({
         pull(controller) {
           if (at >= body.length) return controller.close();
           controller.enqueue(new Uint8Array(body.subarray(at, at + 65536)));
           at += 65536;
         },
       });
       const request = new Request("http://localhost/api/cotiza", { method: "POST", body: stream, duplex: "half", headers: { "content-type": \`multipart/form-data; boundary=\${boundary}\` } });
       const limits = { maxFiles: 1, maxFileBytes: 8 * 1024 * 1024, maxTotalBytes: 8 * 1024 * 1024 };
       const result = await parseMultipartUpload(request, limits, uploadsTmpDir());
       if (!result.ok || result.files[0]?.size !== size) throw new Error("the upload was not read whole");`,
      dataDir,
      ["pwrite64", "ftruncate"],
    );
    const tmpFile = escape(path.join(dataDir, "uploads", ".tmp")) + "/\\d+\\.[0-9a-f-]+";
    const log = trace.lines.join("\n");
    const size = 5 * 1024 * 1024 + 1000;
    // Where the file system takes direct writes (ext4 here and in CI), the file is opened O_DIRECT and
    // its bytes go from the staging area to the disk as they come (docs/decisions/0074).
    const created = trace.index(new RegExp(`openat\\(.*${tmpFile}.*O_CREAT.*O_EXCL.*O_DIRECT|openat\\(.*${tmpFile}.*O_DIRECT.*O_CREAT`));
    expect(created, log).toBeGreaterThanOrEqual(0);
    const writes = wholeCalls(trace.lines)
      .map((line) => new RegExp(`pwrite64\\(\\d+<${tmpFile}>, .*, (\\d+), (\\d+)\\) = (\\d+)`).exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ length: Number(match[1]), position: Number(match[2]), written: Number(match[3]) }));
    // Whole 4 KiB blocks at aligned places, each after the last, a quarter MiB to a MiB each while the
    // body arrives, then the last partial block padded: every byte once, and no flush needed.
    expect(writes.every(({ length, position, written }) => length === written && length % 4096 === 0 && position % 4096 === 0), log).toBe(true);
    expect(writes.map(({ position }) => position), log).toEqual([...writes.map(({ position }) => position)].sort((a, b) => a - b));
    expect(writes.reduce((sum, { length }) => sum + length, 0), log).toBe(Math.ceil(size / 4096) * 4096);
    expect(writes.length, log).toBeGreaterThanOrEqual(6);
    expect(writes.length, log).toBeLessThanOrEqual(22);
    // Cut back to the bytes sent, and never flushed through the page cache.
    expect(trace.index(new RegExp(`ftruncate\\(\\d+<${tmpFile}>, ${size}\\) = 0`)), log).toBeGreaterThan(created);
    expect(trace.lines.filter((line) => new RegExp(`fdatasync\\(\\d+<${tmpFile}>\\)`).test(line)), log).toEqual([]);
  }, 90_000);
});
