// Realtime benchmark of `npm run bench` (issue 11 §5): 1 000 subscribers on one process, time from a
// commit to the last delivery. 1 000 SSE streams are opened on /api/realtime and each subscribes to
// `productos/*` — 750 as guests, 250 with a staff token (both may see an active product, each
// through the collection's rule) — then a product's stock is changed through the record API, one
// change at a time, and for each change we time from sending the PATCH (so the commit is inside the
// figure, an upper bound) to the moment the last of the 1 000 streams has received its event.
// Reported: p50, p95 and max over the changes (target p95 ≤ 250 ms). The floor is the same PATCH
// with nobody subscribed (the write's own round trip), measured right before the streams open and
// right after they close; the ratio is the figure's p95 over the mean of the two floors' p95.
// Loopback, bounded in count.
import http from "node:http";

const SUBSCRIBERS = 1_000;
const STAFF_SHARE = 0.25;
const CHANGES = 40;
const WARMUP_CHANGES = 5;
const EVENT_TIMEOUT_MS = 10_000;

/** One SSE stream read by hand (a frame per `\n\n`), calling `onEvent(name, data)`; resolves with its client id. */
function openStream(url, onEvent) {
  return new Promise((resolve, reject) => {
    let clientId;
    const request = http.get(`${url}/api/realtime`, { agent: false, headers: { accept: "text/event-stream" } }, (response) => {
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name) => block.split("\n").find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1);
          const event = field("event");
          if (event === "PB_CONNECT") {
            clientId = JSON.parse(field("data")).clientId;
            resolve({ clientId, close: () => request.destroy() });
          } else onEvent(event, field("data"));
        }
      });
      response.on("error", () => {});
    });
    request.on("error", (error) => (clientId ? undefined : reject(error)));
  });
}

async function json(response) {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];

/**
 * Runs against a started server (`url`) with a staff account's record-API `token` (staffToken in
 * bench-support.mjs); returns {subscribers, changes, p50, p95, max, floorBefore, floorAfter} in
 * milliseconds and the ratio.
 */
export async function benchRealtime(url, token) {
  const { items } = await json(await fetch(`${url}/api/collections/productos/records?perPage=1&filter=${encodeURIComponent("existencia > 0")}`));
  const product = items[0];
  if (!product) throw new Error("No hay un producto activo para el banco de tiempo real");

  let waiting = null; // { remaining, started, resolve }
  const onEvent = (name, data) => {
    if (name !== "productos/*" || !waiting) return;
    if (JSON.parse(data).record?.id !== product.id) return;
    waiting.remaining -= 1;
    if (waiting.remaining === 0) waiting.resolve(performance.now() - waiting.started);
  };

  let stock = 100;
  const patch = async () =>
    json(
      await fetch(`${url}/api/collections/productos/records/${product.id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", Authorization: token },
        body: JSON.stringify({ existencia: (stock += 1) }),
      }),
    );

  /** p95 of the PATCH alone (nobody subscribed). */
  const floor = async () => {
    const times = [];
    for (let index = 0; index < WARMUP_CHANGES + CHANGES; index += 1) {
      const started = performance.now();
      await patch();
      if (index >= WARMUP_CHANGES) times.push(performance.now() - started);
    }
    return percentile(times.sort((a, b) => a - b), 0.95);
  };

  const floorBefore = await floor();
  const streams = [];
  let figure;
  try {
    for (let index = 0; index < SUBSCRIBERS; index += 1) {
      const stream = await openStream(url, onEvent);
      streams.push(stream);
      const authorization = index < SUBSCRIBERS * STAFF_SHARE ? { Authorization: token } : {};
      const answer = await fetch(`${url}/api/realtime`, {
        method: "POST",
        headers: { "content-type": "application/json", ...authorization },
        body: JSON.stringify({ clientId: stream.clientId, subscriptions: ["productos/*"] }),
      });
      if (answer.status !== 204) throw new Error(`suscripción: ${answer.status} ${await answer.text()}`);
    }

    const times = [];
    for (let change = 0; change < WARMUP_CHANGES + CHANGES; change += 1) {
      const delivered = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Faltaron ${waiting.remaining} entregas tras ${EVENT_TIMEOUT_MS} ms`)), EVENT_TIMEOUT_MS);
        waiting = {
          remaining: SUBSCRIBERS,
          started: performance.now(),
          resolve: (ms) => {
            clearTimeout(timer);
            resolve(ms);
          },
        };
      });
      await patch();
      const ms = await delivered;
      waiting = null;
      if (change >= WARMUP_CHANGES) times.push(ms);
    }
    const sorted = times.sort((a, b) => a - b);
    figure = { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) };
  } finally {
    for (const stream of streams) stream.close();
  }
  const floorAfter = await floor();
  return { subscribers: SUBSCRIBERS, changes: CHANGES, ...figure, floorBefore, floorAfter, ratio: figure.p95 / ((floorBefore + floorAfter) / 2) };
}
