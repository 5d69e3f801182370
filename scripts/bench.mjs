// `npm run bench`: requests/second on loopback (bounded in time) for a hashed static asset, public
// pages and /api/health; each page's ratio to the static asset; and the gzip size of the JavaScript
// a first visit to / downloads.
//
// Each route is compared with the hashed asset whose compressed size is closest to its own, so the
// ratio compares the server's work per request rather than how many bytes the client parses.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { benchStaffList, benchUpload } from "./bench-forms.mjs";
import { startServer } from "./start-server.mjs";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PAGES = ["/", "/industrias-design/medica", "/servicios", "/faqs"];
const headers = { "accept-encoding": "gzip" };

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await startServer();

async function measure(url) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm-up (first render, compression)
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} respuestas no-2xx, ${result.errors} errores`);
  return { rps: result.requests.average, bytes: Math.round(result.throughput.average / result.requests.average) };
}

async function gzipBytes(url) {
  const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
  return gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
}

async function firstLoadJs(base) {
  const html = await (await fetch(`${base}/`)).text();
  const sources = new Set();
  for (const match of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/import\(?\s*"([^"]+\.js)"/g)) sources.add(match[1]);
  let gzip = 0;
  for (const src of sources) gzip += await gzipBytes(new URL(src, base));
  return { files: sources.size, gzip };
}

try {
  const assets = [];
  for (const name of fs.readdirSync(path.resolve("build/client/assets")).filter((file) => /\.(js|css)$/.test(file))) {
    assets.push({ path: `/assets/${name}`, gzip: gzipSync(fs.readFileSync(path.resolve("build/client/assets", name)), { level: 9 }).length });
  }
  /** The hashed asset whose compressed size is closest to `bytes`: the fair static-file baseline. */
  const nearestAsset = (bytes) => [...assets].sort((a, b) => Math.abs(a.gzip - bytes) - Math.abs(b.gzip - bytes))[0];

  // Catalogue pages are kept only until the catalogue's data changes (stock stays live); their
  // target is ≥ 0.5× the static file.
  const catalogue = await (await fetch(`${server.url}/catalogo`)).text();
  const product = catalogue.match(/href="(\/catalogo\/[a-z0-9-]+)"/)?.[1];
  if (!product) throw new Error("No se encontró un producto en /catalogo");

  const baselines = new Map();
  const rows = [];
  for (const page of [...PAGES, "/catalogo", product, "/api/health"]) {
    const asset = nearestAsset(await gzipBytes(server.url + page));
    if (!baselines.has(asset.path)) baselines.set(asset.path, await measure(server.url + asset.path));
    rows.push({ label: page, asset, baseline: baselines.get(asset.path), ...(await measure(server.url + page)) });
  }
  const js = await firstLoadJs(server.url);

  console.log(`\nBenchmark: ${DURATION_S} s por ruta, ${CONNECTIONS} conexiones, loopback, gzip`);
  console.log("Cada ruta se compara con el recurso estático con hash de tamaño comprimido más parecido.");
  console.log("ruta".padEnd(44) + "req/s".padStart(8) + "  bytes".padStart(8) + "   estático req/s (bytes)".padStart(26) + "  proporción");
  for (const row of rows) {
    console.log(
      row.label.padEnd(44) +
        row.rps.toFixed(0).padStart(8) +
        String(row.bytes).padStart(8) +
        `${row.baseline.rps.toFixed(0)} (${row.baseline.bytes})`.padStart(26) +
        `  ${(row.rps / row.baseline.rps).toFixed(2)}×`,
    );
  }
  console.log(`\nJavaScript de la primera visita a /: ${js.files} archivos, ${(js.gzip / 1024).toFixed(1)} KB gzip`);
} finally {
  await server.stop();
}

const upload = await benchUpload();
const uploadLine = (figures) => `p50 ${figures.p50} ms, p95 ${figures.p95} ms, p99 ${figures.p99} ms (${figures.requests} solicitudes)`;
console.log(`\nPOST /api/cotiza con un STEP de 5 MB, 20 concurrentes: ${uploadLine(upload.forja)}; meta p95 ≤ 150 ms`);
console.log(`  mismo envío a un servidor Node mínimo que solo lee y descarta el cuerpo: ${uploadLine(upload.floor)}`);
const list = await benchStaffList();
console.log(
  `/admin/formularios página 1 con el total exacto: ${list.small.rps.toFixed(0)} req/s con 1 000 solicitudes, ${list.large.rps.toFixed(0)} req/s con 100 000 ` +
    `(tiempo por página ${list.slowdown.toFixed(2)}× el de 1 000; meta ≤ 2×)`,
);
console.log(
  `  primera carga después de un cambio (el total se cuenta de nuevo): ${list.small.afterChangeMs} ms con 1 000, ${list.large.afterChangeMs} ms con 100 000`,
);
