// Benchmarks of the record API (issue 11 §5), run by `npm run bench`:
// - GET /api/collections/productos/records?perPage=30&skipTotal=1 (a guest's first page in the
//   default order, `created,id`) on a catalogue of 100 000 products vs 1 000 (target ≤ 1.2×
//   slowdown). Each size runs on its own server and database, and each rate is taken against a
//   static-file floor on the same server (bench-support.mjs), so the slowdown compares the two
//   ratios rather than two rates measured minutes apart on a shared machine.
// The realtime figure of the same issue is scripts/bench-realtime.mjs.
import { againstFloor, gzipBytes, nearestAsset, rate, startSeededServer, staticAssets } from "./bench-support.mjs";

export const RECORDS_PATH = "/api/collections/productos/records?perPage=30&skipTotal=1";

/**
 * `count` products in one INSERT … SELECT generate_series: one in twenty inactive (a guest does not
 * see them), one in three with an image row (the `imagenes` subquery has something to read),
 * created one second apart as a catalogue filled over time would be; then ANALYZE, as autovacuum
 * would soon do on a real server.
 */
export function seedProducts(count) {
  return async (exec) => {
    await exec(`
      insert into products (slug, sku, name, category, short_description, description, price_centavos, stock, active,
                            search_document, created_at, updated_at)
      select 'pieza-banco-' || g, 'FOR-BNC-' || lpad(g::text, 6, '0'), 'Pieza de banco ' || g,
             (array['Tornillería','Soportes','Placas','Perfiles','Bridas'])[1 + g % 5],
             'Pieza de prueba para el banco de pruebas.', '', 1000 + g % 50000, g % 40, g % 20 <> 0,
             'pieza de banco ' || g, timestamptz '2026-01-01 00:00:00Z' + (g || ' seconds')::interval, now()
      from generate_series(1, ${count}) as g;
      insert into product_images (product_id, alt, position, width, height, variants)
      select id, name, 0, 1200, 900, '[]'::jsonb from products where sku like 'FOR-BNC-%' and right(sku, 1) in ('0', '3', '6');
      analyze products;
      analyze product_images;`);
  };
}

/** The records list's rate on a catalogue of `count` products, against a static file of similar size. */
async function recordsRate(count) {
  const server = await startSeededServer({ seed: seedProducts(count) });
  try {
    const url = server.url + RECORDS_PATH;
    const first = await fetch(url);
    const page = await first.json();
    if (first.status !== 200 || page.items?.length !== 30) throw new Error(`${RECORDS_PATH} respondió ${first.status} con ${page.items?.length} registros`);
    const asset = nearestAsset(staticAssets(), await gzipBytes(url));
    const result = await againstFloor({ figure: (seconds) => rate(url, seconds), floor: (seconds) => rate(server.url + asset.path, seconds) });
    return { count, asset, ...result };
  } finally {
    await server.stop();
  }
}

export async function benchRecordsList() {
  const small = await recordsRate(1_000);
  const large = await recordsRate(100_000);
  // Time per request relative to the floor, large over small: > 1 means slower with more rows.
  return { small, large, slowdown: small.ratio / large.ratio, rawSlowdown: small.value / large.value };
}

