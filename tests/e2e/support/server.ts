import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MEDIA_SEED_ADDED, MEDIA_SEED_FAILED } from "../../../app/features/site/media/media-seed-log.ts";

// Starts the real production server (never a mock) for the browser tests.
//
// The server runs from a private copy of `build/`, so a test that rewrites the build's
// version.json cannot disturb anything else, and a rebuild by someone else during the run
// (which empties build/client/assets) cannot pull files away from the running server.
// server/index.ts resolves `build/` and `drizzle/` against its working directory, so the copy
// gets symlinks to the project's node_modules and migrations next to it.

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../..");
const NODE_BIN = path.join(PROJECT_ROOT, "node_modules/.bin/node");
const SERVER_ENTRY = path.join(PROJECT_ROOT, "server/index.ts");
const LISTENING_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export interface RunningServer {
  url: string;
  pid: number;
  /** The server's own directory: its build copy, symlinks to node_modules, drizzle and scripts. */
  root: string;
  /** Its DATA_DIR (embedded database, outbox files). */
  dataDir: string;
  /** The private build the server serves (its client files are in `${buildDir}/client`). */
  buildDir: string;
  /** SIGTERM to this server only, wait for it to exit, then remove its temporary directory. */
  stop(): Promise<void>;
}

/** The Node binary the project pins (Node 24 in node_modules/.bin), else the one running us. */
export function nodeBinary(): string {
  return fs.existsSync(NODE_BIN) ? NODE_BIN : process.execPath;
}

function prepareRoot(): { root: string; dataDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-e2e-"));
  fs.cpSync(path.join(PROJECT_ROOT, "build"), path.join(root, "build"), { recursive: true });
  fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  fs.symlinkSync(path.join(PROJECT_ROOT, "drizzle"), path.join(root, "drizzle"), "dir");
  // So `node scripts/admin-create.mjs` runs against this copy of the build (its ensure-build step
  // finds no sources here and never rebuilds).
  fs.symlinkSync(path.join(PROJECT_ROOT, "scripts"), path.join(root, "scripts"), "dir");
  const dataDir = path.join(root, "data");
  fs.mkdirSync(dataDir);
  return { root, dataDir };
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** PATH with the project's Node 24 first, for scripts that call `node` themselves. */
export function pathWithProjectNode(): string {
  return [path.join(PROJECT_ROOT, "node_modules/.bin"), process.env.PATH ?? ""].join(path.delimiter);
}

export interface AdminCreateResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `DATA_DIR=<dataDir> node scripts/admin-create.mjs --email … --password … --name …`, run in the
 * server's own directory (so it uses the same build copy). Bounded in time.
 */
export function runAdminCreate(
  server: { root: string; dataDir: string },
  account: { email: string; password: string; name: string },
  timeoutMs = 60_000,
): Promise<AdminCreateResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithProjectNode(), DATA_DIR: server.dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  const child = spawn(
    nodeBinary(),
    ["scripts/admin-create.mjs", "--email", account.email, "--password", account.password, "--name", account.name],
    { cwd: server.root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`admin-create no terminó en ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Exempts the admin of `email` from the second step of sign-in (docs/decisions/0061) with the
 * test-only `mfa-exempt:<userId>` row (mfa.server.ts; nothing in the product writes it), written in
 * the server's embedded database before the server starts, so the browser tests' API clients sign
 * that admin in with the password alone. Another admin keeps the two steps.
 */
export async function exemptAdminFromMfa(dataDir: string, email: string): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(dataDir, "db"));
  try {
    const written = await db.query(
      `insert into verification (id, identifier, value, expires_at)
       select gen_random_uuid()::text, 'mfa-exempt:' || id, id, '9999-12-31T00:00:00Z' from "user" where email = $1 and role = 'admin'
       returning id`,
      [email.toLowerCase()],
    );
    if (written.rows.length !== 1) throw new Error(`no hay una cuenta de administración ${email} que eximir del segundo paso`);
  } finally {
    await db.close();
  }
}

export interface StartServerOptions {
  /** Extra environment for the server (SMTP_URL, OIDC_*, …). */
  env?: Record<string, string>;
  /** Runs once the server's directory exists and before the server starts (e.g. admin-create). */
  beforeStart?: (paths: { root: string; dataDir: string }) => Promise<void>;
  /**
   * Messages the server logs (at info level or above) after it listens, any one of which to wait
   * for as well: the start-up's background work done (or given up), so that no test sees it change
   * a page under it.
   */
  readyLog?: readonly string[];
}

const READY_LOG_TIMEOUT_MS = 180_000;

/**
 * The site's pictures enter the empty media library once, seconds after the start, and every cached
 * page is rendered again then (its layout follows the library; /cotiza with a new token). Waiting
 * for one of these lines (done, or given up) keeps that work out of a test or a measurement.
 */
export const MEDIA_SEED_LOG = [MEDIA_SEED_ADDED, MEDIA_SEED_FAILED] as const;

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(PROJECT_ROOT, "build/server/index.js"))) {
    throw new Error("No hay compilación de producción (build/server/index.js). Ejecute: npm run build");
  }
  const { root, dataDir } = prepareRoot();
  const removeRoot = () => fs.rmSync(root, { recursive: true, force: true });

  try {
    await options.beforeStart?.({ root, dataDir });
  } catch (error) {
    removeRoot();
    throw error;
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    FORJA_ERROR_ROUTE: "1",
    LOG_LEVEL: options.readyLog ? "info" : "warn",
  };
  // Always the embedded PGlite in DATA_DIR, whatever the developer's shell exports; mail and
  // sign-in providers only as the caller configures them.
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_URL|PUBLIC_URL|MIGRATIONS_DIR|SMTP_URL|MAIL_\w+|OIDC_\w+|GOOGLE_\w+|MICROSOFT_\w+|AUTH_SECRET|TRUST_PROXY)$/.test(name)) delete env[name];
  }
  Object.assign(env, options.env);

  let child: ChildProcess;
  try {
    child = spawn(nodeBinary(), [SERVER_ENTRY], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    removeRoot();
    throw error;
  }

  // Keep the last lines of output to explain a failed start; keep draining so the pipe never fills.
  const recent: string[] = [];
  const remember = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 40) recent.shift();
    }
  };
  child.stderr!.on("data", remember);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
        child.kill("SIGKILL");
        await waitForExit(child, 5_000);
      }
    }
    removeRoot();
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      let buffered = "";
      let found = false;
      const waitMs = options.readyLog ? READY_LOG_TIMEOUT_MS : LISTENING_TIMEOUT_MS;
      const timer = setTimeout(
        () => reject(new Error(`El servidor no escribió "server listening"${options.readyLog ? ` ni ninguno de ${JSON.stringify(options.readyLog)}` : ""} en ${waitMs / 1000} s`)),
        waitMs,
      );
      const onExit = (code: number | null, signal: string | null) => {
        clearTimeout(timer);
        reject(new Error(`El servidor terminó antes de escuchar (código ${code}, señal ${signal})`));
      };
      child.once("exit", onExit);
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      let url: string | undefined;
      let ready = !options.readyLog;
      child.stdout!.on("data", (chunk: Buffer) => {
        remember(chunk);
        if (found) return;
        buffered += chunk.toString("utf8");
        let newline: number;
        while ((newline = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          try {
            const parsed = JSON.parse(line) as { msg?: string; url?: string };
            if (parsed.msg === "server listening" && parsed.url) url = parsed.url;
            if (parsed.msg && options.readyLog?.includes(parsed.msg)) ready = true;
          } catch {
            // Not a JSON line; keep reading.
          }
          if (url && ready) {
            found = true;
            clearTimeout(timer);
            child.off("exit", onExit);
            resolve(url);
            return;
          }
        }
      });
    });
    return { url, pid: child.pid!, root, dataDir, buildDir: path.join(root, "build"), stop };
  } catch (error) {
    await stop();
    const output = recent.length ? `\nÚltimas líneas del servidor:\n${recent.join("\n")}` : "";
    throw new Error(`${error instanceof Error ? error.message : String(error)}${output}`, { cause: error });
  }
}
