// `npm run bench`: every figure on loopback, bounded in time, stated as a ratio to a floor measured
// in the same run right before and right after it (scripts/bench-support.mjs, docs/decisions/0019):
// public pages and /api/health against a static asset of exactly their size (their own bytes served
// as an asset, docs/decisions/0042), so the ratio compares the server's work per request at equal
// bytes on the wire; the
// record API's list at 100 000 vs 1 000 records; the staff list at 100 000 vs 1 000 solicitudes; an
// upload against a drain-only server; the time from publishing a question to /faqs showing it
// (scripts/bench-publish.mjs, a time against its 1 s target, not a ratio); the gzip size of the
// JavaScript a first visit downloads; and
// CAD geometry (scripts/bench-cad.mjs): the server's recompute per MB of STEP against reading and
// hashing the same bytes, and the time to the first estimate of a 5 MB STEP in the browser.
import { execSync } from "node:child_process";
import { benchBrowserEstimate, benchGeometryPerMb } from "./bench-cad.mjs";
import { benchRecordsList, RECORDS_PATH } from "./bench-records.mjs";
import { benchStaffList, reportUpload } from "./bench-forms.mjs";
import { benchPublish } from "./bench-publish.mjs";
import { benchRealtime } from "./bench-realtime.mjs";
import { againstFloor, CONNECTIONS, describeFigure, DURATION_S, gzipBytes, rate, ratioText, sameSizeAsset, startSeededServer, staffToken, usePrivateBuild } from "./bench-support.mjs";

// /cotiza: cached too, rendered again every hour for its form token (docs/decisions/0031).
const PAGES = ["/", "/industrias-design/medica", "/servicios", "/faqs", "/cotiza"];

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
// A rebuild in the working tree during the run must not pull the build from under the servers.
process.once("exit", usePrivateBuild());

// Publish to served (scripts/bench-publish.mjs): FAQ edits through the record API as staff, on a
// server on the embedded database like the other figures (DATABASE_URL's server when set).
const PUBLISH_STAFF = { email: "publicacion@forja.example", password: "Banco-de-pruebas-26", name: "Banco de Publicación" };
async function reportPublish() {
  const publishServer = await startSeededServer({ staff: PUBLISH_STAFF });
  try {
    const publish = await benchPublish(publishServer.url, await staffToken(publishServer, PUBLISH_STAFF));
    console.log(`\nDe «Publicar» a la página servida: ${publish.edits} ediciones de una pregunta por la API de registros (personal), /faqs en la caché antes de cada una`);
    console.log(`  de la respuesta de la publicación al primer GET /faqs con el texto nuevo: p50 ${publish.p50.toFixed(0)} ms, p95 ${publish.p95.toFixed(0)} ms, máximo ${publish.max.toFixed(0)} ms; meta ≤ 1 000 ms`);
  } finally {
    await publishServer.stop();
  }
}

// `node scripts/bench.mjs upload`: the upload figure alone (to iterate on it); `publicacion`: the
// publish-to-served figure alone; `pages`: see below.
if (process.argv[2] === "upload") {
  await reportUpload();
  process.exit(0);
}
if (process.argv[2] === "publicacion") {
  await reportPublish();
  process.exit(0);
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

const pad = (text, width) => String(text).padStart(width);
/** 100000 → "100 000", as the rest of the output writes numbers. */
const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
const header = "ruta".padEnd(46) + pad("req/s", 8) + pad("bytes", 8) + "  suelo: la misma respuesta como recurso estático (bytes gzip)".padEnd(64) + pad("antes", 7) + pad("después", 9) + pad("proporción", 12);

console.log(`\nBenchmark: ${DURATION_S} s por medición, ${CONNECTIONS} conexiones, loopback, gzip.`);
console.log("Cada cifra: calentamiento (cifra y suelo), suelo, cifra, suelo; proporción = cifra / media de los dos suelos.");

const server = await startSeededServer();
let js;
const rows = [];
try {
  // Catalogue pages are kept only until the catalogue's data changes (stock stays live); their
  // target is ≥ 0.5× the static file.
  const catalogue = await (await fetch(`${server.url}/catalogo`)).text();
  const product = catalogue.match(/href="(\/catalogo\/[a-z0-9-]+)"/)?.[1];
  if (!product) throw new Error("No se encontró un producto en /catalogo");

  console.log(header);
  for (const [index, page] of [...PAGES, "/catalogo", product, "/api/health"].entries()) {
    const asset = await sameSizeAsset(server.url + page, String(index + 1));
    const result = await againstFloor({ figure: (seconds) => rate(server.url + page, seconds), floor: (seconds) => rate(server.url + asset.path, seconds) });
    rows.push({ label: page, asset, ...result });
    console.log(
      page.padEnd(46) +
        pad(result.value.toFixed(0), 8) +
        pad(result.bytes, 8) +
        `  ${asset.path} (${asset.gzip})`.padEnd(64) +
        pad(result.floorBefore.value.toFixed(0), 7) +
        pad(result.floorAfter.value.toFixed(0), 9) +
        pad(ratioText(result.ratio), 12),
    );
  }
  js = await firstLoadJs(server.url);
} finally {
  await server.stop();
}
console.log(`\nJavaScript de la primera visita a /: ${js.files} archivos, ${(js.gzip / 1024).toFixed(1)} KB gzip (meta ≤ 128 KB)`);
// `node scripts/bench.mjs pages`: the page table and the first visit's JavaScript alone.
if (process.argv[2] === "pages") process.exit(0);

const records = await benchRecordsList();
console.log(`\nGET ${RECORDS_PATH} (invitado, orden por omisión created,id):`);
for (const size of [records.small, records.large]) {
  console.log(`  ${thousands(size.count)} productos: ${describeFigure(size)}; suelo ${size.asset.path} (${size.asset.gzip} B gzip)`);
}
console.log(
  `  tiempo por solicitud con 100 000 = ${records.slowdown.toFixed(2)}× el de 1 000, medido contra el suelo (${records.rawSlowdown.toFixed(2)}× en req/s sin corregir); meta ≤ 1.2×`,
);

// Realtime: 1 000 subscribers on one process, p95 from commit to last delivery (scripts/bench-realtime.mjs).
const REALTIME_STAFF = { email: "tiempo-real@forja.example", password: "Banco-de-pruebas-26", name: "Banco de Tiempo Real" };
const realtimeServer = await startSeededServer({ staff: REALTIME_STAFF });
try {
  const realtime = await benchRealtime(realtimeServer.url, await staffToken(realtimeServer, REALTIME_STAFF));
  console.log(`\nTiempo real: ${realtime.subscribers} suscriptores a productos/* (¾ visitantes, ¼ personal), ${realtime.changes} cambios de existencia`);
  console.log(`  del envío del cambio a la última entrega: p50 ${realtime.p50.toFixed(0)} ms, p95 ${realtime.p95.toFixed(0)} ms, máximo ${realtime.max.toFixed(0)} ms; meta p95 ≤ 250 ms`);
  console.log(`  suelo (el mismo cambio sin suscriptores), p95 antes ${realtime.floorBefore.toFixed(0)} ms y después ${realtime.floorAfter.toFixed(0)} ms: ${realtime.ratio.toFixed(1)}× el suelo`);
} finally {
  await realtimeServer.stop();
}

await reportPublish();

const list = await benchStaffList();
console.log(`\n/admin/formularios página 1 con el total exacto:`);
console.log(`  1 000 solicitudes: ${describeFigure(list.small)}`);
console.log(`  100 000 solicitudes: ${describeFigure(list.large)}`);
console.log(`  tiempo por página con 100 000 = ${list.slowdown.toFixed(2)}× el de 1 000, medido contra el suelo (${list.rawSlowdown.toFixed(2)}× sin corregir); meta ≤ 2×`);
console.log(`  primera carga después de un cambio (el total se cuenta de nuevo): ${list.small.afterChangeMs} ms con 1 000, ${list.large.afterChangeMs} ms con 100 000`);

await reportUpload();

// CAD geometry: the server's worker thread on a 5 MB STEP, and the same file on /cotiza in Chromium.
const geometry = await benchGeometryPerMb();
const perMb = (seconds) => `${seconds < 0.01 ? (seconds * 1000).toFixed(2) + " ms" : seconds.toFixed(2) + " s"}/MB`;
console.log(`\nGeometría en el servidor, STEP de ${geometry.mb.toFixed(1)} MB (${geometry.solids} bloques con agujero), en un hilo nuevo, como el primer archivo del trabajo de fondo tras un rato sin archivos:`);
console.log(`  ${geometry.seconds.toFixed(2)} s, ${perMb(geometry.value)}; volumen exacto`);
console.log(`  en el hilo que se conserva entre archivos (el núcleo ya cargado): ${geometry.keptSeconds.toFixed(2)} s, ${perMb(geometry.keptSeconds / geometry.mb)}`);
console.log(`  suelo, leer el mismo archivo del disco y calcular su sha256: antes ${perMb(geometry.floorBefore)}, después ${perMb(geometry.floorAfter)}: ${Math.round(geometry.ratio)}× el suelo`);
const browserEstimate = await benchBrowserEstimate();
console.log(`\nPrimera estimación en el navegador (Chromium, /cotiza), STEP de ${browserEstimate.mb.toFixed(1)} MB, de elegir el archivo al volumen en pantalla (${browserEstimate.cold.volume}):`);
console.log(`  con la caché vacía (se descargan y compilan el lector y el núcleo): ${Math.round(browserEstimate.cold.ms)} ms`);
console.log(`  con el núcleo ya en la caché del navegador: ${Math.round(browserEstimate.cached.ms)} ms`);
