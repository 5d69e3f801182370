// `npm run bench`: requests/second for a hashed static asset, public pages and /api/health on
// loopback (bounded in time), each page's ratio to the static asset, and the gzip size of the
// JavaScript a first visit to / downloads.
import { execSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { startServer } from "./start-server.mjs";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await startServer();

async function measure(url) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers: { "accept-encoding": "gzip" } }); // warm-up
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { "accept-encoding": "gzip" } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} respuestas no-2xx, ${result.errors} errores`);
  return result.requests.average;
}

async function firstLoadJs(base) {
  const html = await (await fetch(`${base}/`)).text();
  const sources = new Set();
  for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/import\(?\s*"([^"]+\.js)"/g)) sources.add(match[1]);
  let gzip = 0;
  for (const src of sources) gzip += gzipSync(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer()), { level: 9 }).length;
  return { files: sources.size, gzip };
}

try {
  const html = await (await fetch(`${server.url}/`)).text();
  const asset = html.match(/href="(\/assets\/entry\.client-[^"]+\.js)"/)?.[1] ?? html.match(/"(\/assets\/[^"]+\.js)"/)?.[1];
  if (!asset) throw new Error("No se encontró un recurso con hash en /");
  const targets = [
    ["recurso estático con hash", asset],
    ["/", "/"],
    ["/industrias-design/medica", "/industrias-design/medica"],
    ["/servicios", "/servicios"],
    ["/api/health", "/api/health"],
  ];
  const rows = [];
  for (const [label, path] of targets) rows.push({ label, rps: await measure(server.url + path) });
  const base = rows[0].rps;
  const js = await firstLoadJs(server.url);
  console.log(`\nBenchmark (${DURATION_S} s por ruta, ${CONNECTIONS} conexiones, loopback)`);
  console.log("ruta".padEnd(32) + "req/s".padStart(10) + "   vs. estático");
  for (const row of rows) console.log(row.label.padEnd(32) + row.rps.toFixed(0).padStart(10) + `   ${(row.rps / base).toFixed(2)}×`);
  console.log(`\nJavaScript de la primera visita a /: ${js.files} archivos, ${(js.gzip / 1024).toFixed(1)} KB gzip`);
} finally {
  await server.stop();
}
