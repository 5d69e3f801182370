// What every figure of `npm run bench` shares: load generation (autocannon, loopback, bounded in
// time), the floor method, the hashed static assets that serve as floors, and servers on a
// database of a chosen size (PGlite in a temporary DATA_DIR; with DATABASE_URL, a fresh database
// on that PostgreSQL server, dropped afterwards).
//
// The floor method (docs/decisions/0019): a figure means little on a shared 2-core machine unless
// it is stated against something measured in the same minute. Each figure is therefore measured as
//   warm-up (figure, then floor) → floor → figure → floor
// and reported as figure / mean(floor before, floor after), with both floors printed, so drift
// during the run shows as a gap between them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import pg from "pg";
import PostalMime from "postal-mime";
import { startServer } from "./start-server.mjs";

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
export const WARMUP_S = Math.min(2, DURATION_S);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
export const node = path.resolve("node_modules/.bin/node");

/**
 * Moves this process into a private copy of the build (with links to what the server reads beside
 * it), so a rebuild in the working tree during a long run cannot pull files from under the servers.
 * Returns a function that goes back and removes the copy.
 */
export function usePrivateBuild() {
  const previous = process.cwd();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "forja-bench-build-"));
  fs.cpSync(path.resolve("build"), path.join(root, "build"), { recursive: true });
  for (const entry of ["node_modules", "server", "drizzle", "scripts"]) fs.symlinkSync(path.resolve(entry), path.join(root, entry), "dir");
  process.chdir(root);
  return () => {
    process.chdir(previous);
    fs.rmSync(root, { recursive: true, force: true });
  };
}

/** autocannon without its console output; rejects on an error of its own. */
export function run(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** Requests/second and bytes per response of GET `url` for `seconds`; any non-2xx or error fails the run. */
export async function rate(url, seconds, { connections = CONNECTIONS, headers = {} } = {}) {
  const result = await run({ url, connections, duration: seconds, headers: { "accept-encoding": "gzip", ...headers } });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} respuestas no-2xx, ${result.errors} errores, ${result.timeouts} tiempos agotados`);
  }
  return { value: result.requests.average, bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)) };
}

/**
 * One figure against its floor: `figure(seconds, warm)` and `floor(seconds, warm)` each resolve to
 * `{ value }` (req/s, or milliseconds for a latency) plus anything else to print; `warm` is true for
 * the warm-up. Both warm up first, then floor, figure, floor; `ratio` is the figure over the mean
 * of the two floors. `settle()`, when given, runs before each floor: a figure that leaves work
 * behind (see untilQuiet) must not have it slow down the floor that follows and flatter the ratio.
 */
export async function againstFloor({ figure, floor, seconds = DURATION_S, warmup = WARMUP_S, settle = async () => {} }) {
  await figure(warmup, true);
  await floor(warmup, true);
  await settle();
  const before = await floor(seconds, false);
  const measured = await figure(seconds, false);
  await settle();
  const after = await floor(seconds, false);
  const floorMean = (before.value + after.value) / 2;
  return { ...measured, floorBefore: before, floorAfter: after, floorMean, ratio: measured.value / floorMean };
}

const CLOCK_TICKS_PER_S = 100;

/** CPU time (clock ticks) of each of the process's threads that runs at normal priority, by thread id; null once the process is gone. */
function foregroundTicks(pid) {
  const ticks = new Map();
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  for (const tid of tasks) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      // Fields after the command's closing parenthesis: 14 utime, 15 stime, 19 nice (1-based, from pid).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[16]) > 0) continue; // background threads (jobs run at nice 10) may go on
      ticks.set(tid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ticks;
}

/** CPU ticks used between two samples by the threads in both (one that ended or went to the background does not count). */
function ticksBetween(before, after) {
  let used = 0;
  for (const [tid, ticks] of after) if (before.has(tid)) used += ticks - before.get(tid);
  return used;
}

/**
 * Waits until the server's foreground threads have been quiet (under `share` of one core) for two
 * half-second samples in a row, or `maxMs` passed. A server keeps working after its last answer
 * (sending the e-mails of the requests just stored, seeding images at start): measured at the same
 * time, the floor would run slower and flatter the figure. Background jobs at a lower priority do
 * not count: they give way to the floor as they would to requests. Resolves with the time waited.
 * Only where /proc exists (Linux); elsewhere it resolves at once.
 */
export async function untilQuiet(pid, { maxMs = 60_000, share = 0.05 } = {}) {
  const started = Date.now();
  if (!pid || !fs.existsSync(`/proc/${pid}/task`)) return 0;
  let previous = foregroundTicks(pid);
  let quietSamples = 0;
  while (quietSamples < 2 && Date.now() - started < maxMs && previous !== null) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = foregroundTicks(pid);
    if (now === null) break;
    quietSamples = ticksBetween(previous, now) / CLOCK_TICKS_PER_S / 0.5 < share ? quietSamples + 1 : 0;
    previous = now;
  }
  return Date.now() - started;
}

/** A ratio with two significant digits at least: 0.012×, 0.56×, 1.73×. */
export const ratioText = (ratio) => `${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}×`;

/** "1234 req/s (suelo antes 2345, después 2301; 0.53× el suelo)": a figure with both floors and its ratio. */
export function describeFigure(result, unit = "req/s") {
  return `${result.value.toFixed(0)} ${unit} (suelo antes ${result.floorBefore.value.toFixed(0)}, después ${result.floorAfter.value.toFixed(0)}; ${ratioText(result.ratio)} el suelo)`;
}

/** The hashed JS/CSS files of the build with their gzip sizes: the static-file floors. */
export function staticAssets() {
  const dir = path.resolve("build/client/assets");
  return fs
    .readdirSync(dir)
    .filter((file) => /\.(js|css)$/.test(file))
    .map((name) => ({ path: `/assets/${name}`, gzip: gzipSync(fs.readFileSync(path.join(dir, name)), { level: 9 }).length }));
}

/** The hashed asset whose compressed size is closest to `bytes`: the fair static-file floor for a response that size. */
export function nearestAsset(assets, bytes) {
  return [...assets].sort((a, b) => Math.abs(a.gzip - bytes) - Math.abs(b.gzip - bytes))[0];
}

/**
 * A static floor of exactly the response's size: what `url` answers (uncompressed) written as a
 * hashed-style asset of the running build (the private copy the bench serves, usePrivateBuild), so
 * the server reads and compresses it like any asset (gzip level 9) and serves it from memory. The
 * ratio then compares the work per request at equal bytes, not a page with a smaller file.
 * Resolves with the floor's path and its gzip size.
 */
export async function sameSizeAsset(url, name, headers = {}) {
  const response = await fetch(url, { headers: { "accept-encoding": "identity", ...headers } });
  const body = Buffer.from(await response.arrayBuffer());
  const file = `suelo-${name}.js`;
  fs.writeFileSync(path.resolve("build/client/assets", file), body);
  return { path: `/assets/${file}`, gzip: gzipSync(body, { level: 9 }).length };
}

/** The gzip size of what `url` answers (fetched uncompressed, compressed here at level 9). */
export async function gzipBytes(url, headers = {}) {
  const response = await fetch(url, { headers: { "accept-encoding": "identity", ...headers } });
  return gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
}

/**
 * A production server on its own database, filled by `seed(exec)` (if given) while the server is stopped
 * (after a first start applied the migrations), then started again. `exec(sql)` runs SQL on that
 * database: PGlite in a temporary DATA_DIR by default; with DATABASE_URL, a fresh database on that
 * server (never the one the URL names). `staff` is created with admin:create when given.
 * Resolves with { url, pid, dataDir, stop() }; stop() removes everything it made. Its mail is
 * written as .eml files under dataDir/mail (no SMTP_URL): staffToken reads the sign-in code there.
 */
export async function startSeededServer({ seed, staff } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-bench-"));
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl = "";
  let databaseName;
  if (adminUrl) {
    databaseName = `forja_bench_${process.pid}_${Date.now()}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${databaseName}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const env = { DATABASE_URL: databaseUrl, SMTP_URL: "", TRUST_PROXY: "loopback" };
  const cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseName) await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
  };
  try {
    if (seed || staff) {
      const first = await startServer({ dataDir, env }); // applies the migrations
      await first.stop();
    }
    if (seed) {
      if (databaseUrl) {
        await withClient(databaseUrl, (client) => seed((text) => client.query(text)));
      } else {
        const db = await PGlite.create(path.join(dataDir, "db"));
        try {
          await seed((text) => db.exec(text));
        } finally {
          await db.close();
        }
      }
    }
    if (staff) {
      execFileSync(node, ["scripts/admin-create.mjs", "--email", staff.email, "--password", staff.password, "--name", staff.name], {
        env: { ...process.env, ...env, DATA_DIR: dataDir },
        stdio: "ignore",
      });
    }
    const server = await startServer({ dataDir, env });
    return {
      url: server.url,
      pid: server.pid,
      dataDir,
      stop: async () => {
        await server.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const MAIL_WAIT_MS = 15_000;

/**
 * Notes the messages already written under `dataDir`/mail and returns a wait for the sign-in code of
 * the next one to `email`: call it before asking for the code, await its result after. Each new
 * file is read once.
 */
function nextEmailedCode(dataDir, email) {
  const mailDir = path.join(dataDir, "mail");
  const listed = () => (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []);
  const seen = new Set(listed());
  return async () => {
    const deadline = Date.now() + MAIL_WAIT_MS;
    for (;;) {
      for (const file of listed().filter((name) => name.endsWith(".eml") && !seen.has(name))) {
        seen.add(file);
        const mail = await PostalMime.parse(fs.readFileSync(path.join(mailDir, file)));
        const to = (mail.to ?? []).map((address) => address.address?.toLowerCase());
        const code = /\b(\d{8})\b/.exec(mail.text ?? "")?.[1];
        if (to.includes(email.toLowerCase()) && code) return code;
      }
      if (Date.now() > deadline) throw new Error(`No llegó el código de acceso para ${email} en ${MAIL_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}

async function jsonOf(response) {
  const body = await response.json();
  return { status: response.status, body };
}

/**
 * A record-API token for `staff` ({email, password}, made by startSeededServer) on `server`, the
 * way the SDK signs an admin in: the password answers 401 {mfaId} (admins sign in in two steps,
 * docs/decisions/0061), then the emailed code with that mfaId answers the token. An account that
 * owes no second step gets its token from the password alone.
 */
export async function staffToken(server, staff) {
  const post = (action, body) =>
    fetch(`${server.url}/api/collections/_superusers/${action}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(jsonOf);
  const first = await post("auth-with-password", { identity: staff.email, password: staff.password });
  if (first.status === 200) return first.body.token;
  if (first.status !== 401 || !first.body.mfaId) throw new Error(`auth-with-password: ${first.status} ${JSON.stringify(first.body)}`);
  const emailedCode = nextEmailedCode(server.dataDir, staff.email);
  const requested = await post("request-otp", { email: staff.email });
  if (requested.status !== 200) throw new Error(`request-otp: ${requested.status} ${JSON.stringify(requested.body)}`);
  const code = await emailedCode();
  const second = await post("auth-with-otp", { otpId: requested.body.otpId, password: code, mfaId: first.body.mfaId });
  if (second.status !== 200) throw new Error(`auth-with-otp: ${second.status} ${JSON.stringify(second.body)}`);
  return second.body.token;
}

/**
 * The session cookie of `staff` on `server`, signed in through /admin/login as a person without
 * JavaScript would: the password form answers the page's code step (its hidden mfaId and otpId),
 * then the emailed code signs in (a redirect with the cookies). A request that does not land
 * signed in throws.
 */
export async function staffCookie(server, staff) {
  const post = (fields) =>
    fetch(`${server.url}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "10.99.0.1" },
      body: new URLSearchParams({ redirectTo: "/admin", ...fields }),
    });
  const emailedCode = nextEmailedCode(server.dataDir, staff.email);
  let signedIn = await post({ email: staff.email, password: staff.password });
  if (signedIn.status === 200) {
    const page = await signedIn.text();
    const hidden = (name) => page.match(new RegExp(`name="${name}" value="([^"]+)"`))?.[1];
    const mfaId = hidden("mfaId");
    const otpId = hidden("otpId");
    if (!mfaId || !otpId) throw new Error("/admin/login no pidió el código ni abrió la sesión");
    const code = await emailedCode();
    signedIn = await post({ intent: "codigo", mfaId, otpId, email: staff.email, code });
  }
  if (signedIn.status !== 302 && signedIn.status !== 303) throw new Error(`/admin/login respondió ${signedIn.status}`);
  return signedIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}
