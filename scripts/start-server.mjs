// Starts the production server as a child process on an ephemeral loopback port and resolves
// with its URL and a stop() that ends exactly that process. Used by the benchmark and the tests.
// `onOutput`, when given, receives everything the child writes to stdout and stderr (its JSON log
// lines and anything else); without it stderr goes to this process's own.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export async function startServer({ env = {}, timeoutMs = 60_000, dataDir: givenDataDir, onOutput } = {}) {
  // A given data directory is the caller's to keep; a temporary one is removed on stop.
  const dataDir = givenDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "forja-server-"));
  const child = spawn(path.resolve("node_modules/.bin/node"), ["server/index.ts"], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", onOutput ? "pipe" : "inherit"],
  });
  if (onOutput) {
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8"); // whole characters, never half of one split across chunks
      stream.on("data", onOutput);
    }
  }
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("El servidor no arrancó a tiempo")), timeoutMs);
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      const match = buffer.match(/"msg":"server listening","url":"([^"]+)"/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`El servidor terminó con código ${code}`)));
  });
  child.stdout.resume();
  return {
    url,
    dataDir,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => {
          if (!givenDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
    /** Sends `signal` (e.g. SIGKILL: a crash) and resolves once the process is gone; its data stays. */
    kill: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}
