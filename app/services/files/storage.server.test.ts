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

  it("an upload being received: its temporary file is flushed to the disk every MiB or so while the body still arrives", async () => {
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
    );
    const tmpFile = escape(path.join(dataDir, "uploads", ".tmp")) + "/\\d+\\.[0-9a-f-]+";
    const log = trace.lines.join("\n");
    const created = trace.index(new RegExp(`openat\\(.*${tmpFile}.*O_CREAT.*O_EXCL`));
    expect(created, log).toBeGreaterThanOrEqual(0);
    // A flush once at least a MiB is written since the last: four or five for 5 MiB (writes come in
    // batches of up to a MiB and a chunk); the bytes after the last one wait for storing's sync.
    const flushes = trace.lines.filter((line) => new RegExp(`fdatasync\\(\\d+<${tmpFile}>\\) = 0`).test(line));
    expect(flushes.length, log).toBeGreaterThanOrEqual(4);
    expect(flushes.length, log).toBeLessThanOrEqual(5);
  }, 90_000);
});
