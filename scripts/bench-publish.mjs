// Publish-to-served benchmark of `npm run bench` (issue 16 §6): how soon after "Publicar" the public
// page shows the new text. A question is edited through the record API as staff (a write without
// ?draft=true publishes), one edit at a time, and for each we time from the publish's answer to the
// first GET /faqs whose HTML has the new text, asking every few milliseconds. Before every edit
// /faqs is kept by the page cache and proven so (a request with its ETag answers 304), so each
// figure is an invalidation and one render, not a first visit. Reported: p50, p95 and max over the
// edits (target: within 1 s). Loopback, bounded in count and time.

const EDITS = 20;
const WARMUP_EDITS = 3;
const POLL_GAP_MS = 5;
const SERVED_TIMEOUT_MS = 10_000;

async function json(response) {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes sure the server keeps /faqs: read it, then the same address with its ETag must answer 304. */
async function warmFaqs(url) {
  const first = await fetch(`${url}/faqs`);
  await first.arrayBuffer();
  const etag = first.headers.get("etag");
  if (first.status !== 200 || !etag) throw new Error(`/faqs no quedó en la caché de páginas (${first.status})`);
  const again = await fetch(`${url}/faqs`, { headers: { "if-none-match": etag } });
  await again.arrayBuffer();
  if (again.status !== 304) throw new Error(`/faqs con su ETag respondió ${again.status}, no 304`);
}

/** Milliseconds from `since` (performance.now()) to the first /faqs answer that has `text`. */
async function servedAfter(url, text, since) {
  for (;;) {
    const html = await (await fetch(`${url}/faqs`)).text();
    const now = performance.now();
    if (html.includes(text)) return now - since;
    if (now - since > SERVED_TIMEOUT_MS) throw new Error(`/faqs no mostró «${text}» en ${SERVED_TIMEOUT_MS} ms`);
    await sleep(POLL_GAP_MS);
  }
}

/**
 * Runs against a started server (`url`) with a staff account's record-API `token` (staffToken in
 * bench-support.mjs); returns {edits, p50, p95, max} in milliseconds.
 */
export async function benchPublish(url, token) {
  const write = (method, path, data) =>
    fetch(`${url}/api/collections/preguntas/records${path}`, { method, headers: { "content-type": "application/json", Authorization: token }, body: JSON.stringify(data) }).then(json);

  const question = (edit) => `¿Cuánto tarda en verse una pregunta publicada? Edición ${edit} del banco`;
  const record = await write("POST", "", { pregunta: question(0), respuesta: "Menos de un segundo.", categoria: "Banco de publicación", orden: 9_999 });
  try {
    await servedAfter(url, question(0), performance.now());
    const times = [];
    for (let edit = 1; edit <= WARMUP_EDITS + EDITS; edit += 1) {
      await warmFaqs(url);
      await write("PATCH", `/${record.id}`, { pregunta: question(edit) });
      const ms = await servedAfter(url, question(edit), performance.now());
      if (edit > WARMUP_EDITS) times.push(ms);
    }
    const sorted = times.sort((a, b) => a - b);
    return { edits: EDITS, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) };
  } finally {
    await fetch(`${url}/api/collections/preguntas/records/${record.id}`, { method: "DELETE", headers: { Authorization: token } });
  }
}
