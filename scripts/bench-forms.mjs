// Benchmarks of the forms issue, run by `npm run bench` after the page figures, each measured
// against a floor in the same run (bench-support.mjs: warm up, floor, figure, floor):
// - POST /api/cotiza with a 5 MB STEP attachment at 20 concurrent requests (target: p95 ≤ 2× the
//   floor's p95). The percentiles are computed from every response's time. The floor is the same
//   bodies sent the same way to a bare Node server that only reads and discards them. The client
//   sends each body as its parts, without joining them (docs/decisions/0085: a client that copied
//   each 5 MB body twice set the floor's pace itself). A reference
//   measured the same way gives a lower bound for keeping the bytes on this machine: a bare server
//   that writes each body to a file and computes its sha256, without fsync (docs/decisions/0076);
// - /admin/formularios page 1 with 100 000 solicitudes vs 1 000 (target ≤ 2×), each against a
//   static file of similar size on the same server.
// Everything on loopback, bounded in count and time; each server runs on its own temporary data.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { againstFloor, gzipBytes, nearestAsset, node, rate, staffCookie, startSeededServer, staticAssets, untilQuiet } from "./bench-support.mjs";

const STAFF = { email: "bench@forja.example", password: "Banco-de-pruebas-26", name: "Banco de Pruebas" };
async function formTokens(url, count) {
  const tokens = [];
  for (let index = 0; index < count; index += 1) {
    const html = await (await fetch(`${url}/cotiza`)).text();
    tokens.push(html.match(/name="formToken" value="([^"]+)"/)[1]);
  }
  return tokens;
}

/** A 5 MB STEP file: the ISO-10303-21 header then comment lines, like a real export. */
function stepFile(bytes) {
  const header = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('Soporte de prueba'),'2;1');\nENDSEC;\nDATA;\n";
  const line = "/* #1=CARTESIAN_POINT('',(0.,0.,0.)); relleno de banco de pruebas */\n";
  return Buffer.from(header + line.repeat(Math.ceil((bytes - header.length) / line.length)) + "ENDSEC;\nEND-ISO-10303-21;\n");
}

const UPLOADS = 200;
const WARMUP_UPLOADS = 40;
const UPLOAD_CONNECTIONS = 20;

/** Percentiles from every response time (nearest rank). */
function percentiles(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p) => Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]);
  return { requests: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

let sent = 0;

/**
 * POSTs `partsFor(index, local)` (the body as a list of buffers, sent one after the other without
 * being joined) `amount` times over UPLOAD_CONNECTIONS kept-alive connections (`index` counts across
 * calls, `local` within this one); percentiles of the 2xx answers, each timed from the request's
 * start to its answer's last byte.
 */
async function postBodies(url, contentType, partsFor, amount = UPLOADS) {
  const start = sent;
  sent += amount;
  const cpu = process.cpuUsage();
  const agent = new http.Agent({ keepAlive: true, maxSockets: UPLOAD_CONNECTIONS, noDelay: true });
  const times = [];
  const failed = [];
  let next = 0;
  const post = (local) =>
    new Promise((resolve, reject) => {
      const index = start + local;
      const parts = partsFor(index, local);
      const began = performance.now();
      const request = http.request(url, {
        method: "POST",
        agent,
        timeout: 60_000,
        headers: {
          "content-type": contentType,
          "content-length": parts.reduce((total, part) => total + part.length, 0),
          // Each request its own client address (per-address limits).
          "x-forwarded-for": `10.77.${Math.floor(index / 250)}.${index % 250}`,
        },
      });
      request.once("timeout", () => request.destroy(new Error(`${url}: sin respuesta en 60 s`)));
      request.once("error", reject);
      request.once("response", (response) => {
        response.resume();
        response.once("error", reject);
        response.once("end", () => {
          if (response.statusCode < 300) times.push(performance.now() - began);
          else failed.push(response.statusCode);
          resolve();
        });
      });
      for (const part of parts.slice(0, -1)) request.write(part);
      request.end(parts.at(-1));
    });
  const connection = async () => {
    while (next < amount) await post(next++);
  };
  try {
    await Promise.all(Array.from({ length: UPLOAD_CONNECTIONS }, connection));
  } finally {
    agent.destroy();
  }
  if (failed.length > 0) throw new Error(`${url}: ${failed.length} respuestas no-2xx (${[...new Set(failed)].join(", ")})`);
  const used = process.cpuUsage(cpu);
  return { ...percentiles(times), clientCpuMs: (used.user + used.system) / 1000 / amount };
}

/** A bare Node HTTP server in its own process that reads each request body, discards it and answers. */
const DRAIN_SERVER = `const s = require("node:http").createServer((q, r) => { q.resume(); q.on("end", () => r.end("{}")); });
s.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + s.address().port));`;

/**
 * A lower bound for keeping an upload: a bare Node HTTP server in its own process that computes
 * each body's sha256 while writing it to a new file in the directory given as its argument (through
 * the page cache, without fsync, without multipart parsing), then answers with the hash and removes
 * the file; a failed write or a cut body answers 500, so the bench stops instead of measuring a
 * broken server. Forja does all of this for every upload and more (fsync, the parts, the checks, the
 * database, the e-mails): its figure cannot come in under this one.
 */
const HASH_AND_WRITE_SERVER = `const fs = require("node:fs"), crypto = require("node:crypto"), path = require("node:path"), { pipeline } = require("node:stream");
const dir = process.argv[1];
let next = 0;
const s = require("node:http").createServer((q, r) => {
  const hash = crypto.createHash("sha256"), file = path.join(dir, String(next++));
  q.on("data", (chunk) => hash.update(chunk));
  pipeline(q, fs.createWriteStream(file), (error) => fs.rm(file, { force: true }, () => {
    r.statusCode = error ? 500 : 200;
    r.end(JSON.stringify(error ? { error: String(error) } : { sha256: hash.digest("hex") }));
  }));
});
s.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + s.address().port));`;

/**
 * Runs `source` (one of the servers above) in its own Node process, with its own temporary
 * directory as its argument (removed on stop); resolves with its URL and stop().
 */
async function startBareServer(source) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-banco-"));
  const child = spawn(node, ["-e", source, dir], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
      child.once("exit", (code) => reject(new Error(`El servidor mínimo terminó con código ${code}`)));
    });
    return {
      url,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
        removeDir();
      },
    };
  } catch (error) {
    child.kill("SIGTERM");
    removeDir();
    throw error;
  }
}

export async function benchUpload() {
  const boundary = "----forjabench";
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const file = stepFile(5 * 1024 * 1024);
  const fields = {
    name: "Laura Benítez",
    email: "laura@planta.example",
    phone: "4421234567",
    description: "Soporte de aluminio 6061 para sensor de la línea de envasado",
    quantity: "50",
    tolerance: "iso2768m",
    privacy: "on",
  };
  // Each request its own (the server treats the same request sent again as the one already stored).
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const bodyFor = (index, token) => [
    Buffer.from(
      Object.entries({ ...fields, description: `${fields.description}, lote ${index + 1}`, formToken: token })
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join("") + `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="soporte.step"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    tail,
  ];

  // The three servers run side by side, so each floor is measured right before and after its
  // figure (Forja's, then the reference's).
  const started = [];
  const start = async (starting) => {
    const running = await starting;
    started.push(running);
    return running;
  };
  try {
    const server = await start(startSeededServer());
    const drain = await start(startBareServer(DRAIN_SERVER));
    const reference = await start(startBareServer(HASH_AND_WRITE_SERVER));
    const tokens = await formTokens(server.url, WARMUP_UPLOADS + UPLOADS);
    let used = 0;
    // A bare server's figure: the same bodies, no form token.
    const bareFigure = (bare) => async (_seconds, warm) => {
      const figures = await postBodies(bare.url, contentType, (index) => bodyFor(index, "sin-token"), warm ? WARMUP_UPLOADS : UPLOADS);
      return { value: figures.p95, ...figures };
    };
    const drainFloor = bareFigure(drain);
    await new Promise((resolve) => setTimeout(resolve, 3_200)); // the forms' minimum fill time
    const waits = [];
    const result = await againstFloor({
      // The e-mails of the uploads just stored are still being written after the last answer.
      settle: async () => waits.push(await untilQuiet(server.pid)),
      // Counted in requests (WARMUP_UPLOADS to warm up, then UPLOADS), not in seconds.
      figure: async (_seconds, warm) => {
        const amount = warm ? WARMUP_UPLOADS : UPLOADS;
        const first = used;
        used += amount;
        const figures = await postBodies(`${server.url}/api/cotiza`, contentType, (index, local) => bodyFor(index, tokens[first + local]), amount);
        return { value: figures.p95, ...figures };
      },
      floor: drainFloor,
    });
    // The reference, against the same floor measured again around it.
    const referenceResult = await againstFloor({ figure: bareFigure(reference), floor: drainFloor });
    return { ...result, waits, reference: referenceResult };
  } finally {
    for (const running of started.reverse()) await running.stop();
  }
}

/** The upload's target: its p95 at most this many times the drain-only floor's (issue 13 §5). */
export const UPLOAD_TARGET_RATIO = 2;

/** Runs benchUpload and prints the figure, both floors and the target, marked as met or not, then the reference against its own floors. */
export async function reportUpload() {
  const upload = await benchUpload();
  const line = (figures) =>
    `p50 ${figures.p50} ms, p95 ${figures.p95} ms, p99 ${figures.p99} ms (${figures.requests} solicitudes; el cliente, ${figures.clientCpuMs.toFixed(1)} ms de CPU por envío)`;
  const met = upload.ratio <= UPLOAD_TARGET_RATIO;
  console.log(`\nPOST /api/cotiza con un STEP de 5 MB, ${UPLOAD_CONNECTIONS} concurrentes: ${line(upload)}`);
  console.log(`  suelo, el mismo envío a un servidor Node mínimo que solo lee y descarta el cuerpo: antes ${line(upload.floorBefore)}`);
  console.log(`                                                                                    después ${line(upload.floorAfter)}`);
  const waited = upload.waits.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(" y ");
  console.log(`  cada suelo se midió con el servidor en reposo (hilos de prioridad normal bajo 5 % de un núcleo); espera: ${waited}`);
  console.log(
    `  p95 ${upload.p95} ms = ${upload.ratio.toFixed(2)}× el p95 medio del suelo (${upload.floorBefore.p95} / ${upload.floorAfter.p95} ms); ` +
      `meta p95 ≤ ${UPLOAD_TARGET_RATIO}× el suelo ${met ? "✔ cumplida" : "✘ no cumplida"}`,
  );
  const reference = upload.reference;
  console.log(`  referencia, el mismo envío a un servidor Node mínimo que calcula el sha256 de cada cuerpo mientras lo escribe en un archivo (sin fsync): ${line(reference)}`);
  console.log(
    `  p95 ${reference.p95} ms = ${reference.ratio.toFixed(2)}× el p95 medio de su suelo, medido antes y después (${reference.floorBefore.p95} / ${reference.floorAfter.p95} ms): ` +
      `lo mínimo que cuesta en esta máquina guardar cada cuerpo y calcular su sha256, sin separar las partes del multipart, sin base de datos ni correos`,
  );
  return upload;
}

/** Solicitudes in one SQL statement, created one minute apart. */
function seedSolicitudes(count) {
  return (exec) =>
    exec(`
      insert into solicitudes (number, type, status, name, company, email, phone, industry, description, quantity,
                               privacy_accepted_at, form_token, created_at, updated_at)
      select 'SOL-2025-' || lpad(g::text, 6, '0'), case when g % 4 = 0 then 'contacto' else 'cotizacion' end,
             (array['nuevo','en_revision','cotizado','cerrado','descartado'])[1 + g % 5],
             'Cliente ' || g, 'Empresa ' || (g % 997), 'cliente' || g || '@example.com', '4420000000',
             (array['aeroespacial','automotriz','medica','alimentos','minera'])[1 + g % 5],
             'Pieza de prueba número ' || g, 1 + g % 100,
             now(), 'bench-' || g, now() - (g || ' minutes')::interval, now()
      from generate_series(1, ${count}) as g;`);
}

async function listRate(count) {
  const server = await startSeededServer({ seed: seedSolicitudes(count), staff: STAFF });
  try {
    const cookie = await staffCookie(server, STAFF);
    const url = `${server.url}/admin/formularios`;
    // Not followed: signed out, the page redirects to /admin/login, which answers 200.
    const check = await fetch(url, { headers: { cookie }, redirect: "manual" });
    if (check.status !== 200) throw new Error(`/admin/formularios respondió ${check.status}`);
    const html = await check.text();
    const asset = nearestAsset(staticAssets(), await gzipBytes(url, { cookie }));
    const result = await againstFloor({
      figure: (seconds) => rate(url, seconds, { connections: 10, headers: { cookie } }),
      floor: (seconds) => rate(server.url + asset.path, seconds, { connections: 10 }),
    });
    return { ...result, asset, afterChangeMs: await firstLoadAfterChange(server.url, url, cookie, html) };
  } finally {
    await server.stop();
  }
}

/**
 * The exact total is kept until the solicitudes change: the first page load after a change counts
 * again. Median time of that load, each time after marking a solicitud unread (a real change).
 */
async function firstLoadAfterChange(base, url, cookie, html) {
  const id = html.match(/href="\/admin\/formularios\/([0-9a-f-]{36})"/)?.[1];
  if (!id) throw new Error("No se encontró una solicitud en /admin/formularios");
  const times = [];
  for (let round = 0; round < 7; round += 1) {
    const change = await fetch(`${base}/admin/formularios/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "no_leido" }),
    });
    if (change.status >= 400) throw new Error(`marcar como no leído respondió ${change.status}`);
    const started = performance.now();
    const page = await fetch(url, { headers: { cookie } });
    await page.text();
    times.push(performance.now() - started);
  }
  return Math.round(times.sort((a, b) => a - b)[3]);
}

export async function benchStaffList() {
  const small = await listRate(1_000);
  const large = await listRate(100_000);
  // Time per page relative to the floor, large over small; the raw rates' quotient beside it.
  return { small, large, slowdown: small.ratio / large.ratio, rawSlowdown: small.value / large.value };
}
