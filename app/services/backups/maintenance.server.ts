import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { getDatabase, type Database } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { closeRealtimeStreams } from "~/services/realtime/index.server";

// While a backup is restored (docs/decisions/0055) the site is in maintenance: every request gets
// 503 with Retry-After (a Spanish page, or PocketBase's error body under /api/), in the process
// that restores and, told through the database's notifications, in every other process on the same
// PostgreSQL, so none serves a half-replaced state. A process that hears the start but never the
// end (the restoring one died) leaves maintenance on its own after MAX_MAINTENANCE_MS.

export const BACKUP_CHANNEL = "forja_respaldos";
export const MAINTENANCE_RETRY_AFTER_SECONDS = 30;
const MAX_MAINTENANCE_MS = 15 * 60 * 1000;
const DRAIN_TIMEOUT_MS = 30_000;
export const MAINTENANCE_MESSAGE = "Estamos restaurando un respaldo del sitio. Vuelva a intentarlo en unos minutos; no se perdió nada de lo que ya recibimos.";

interface MaintenanceState {
  /** Maintenance this process started (a restore running here). */
  local: number;
  /** Maintenance another process announced, until this time (ms). */
  remoteUntil: number;
  inFlight: number;
}

const holder = globalThis as typeof globalThis & { __forjaMaintenance?: MaintenanceState };
const state = (holder.__forjaMaintenance ??= { local: 0, remoteUntil: 0, inFlight: 0 });

export function inMaintenance(now = Date.now()): boolean {
  return state.local > 0 || state.remoteUntil > now;
}

export function enterMaintenance(): void {
  state.local += 1;
}

export function leaveMaintenance(): void {
  state.local = Math.max(0, state.local - 1);
}

/** Waits until the requests already being answered have ended (bounded), so none writes into what is replaced. */
export async function waitForRequestsToEnd(timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (state.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (state.inFlight > 0) logger.warn({ inFlight: state.inFlight }, "restoring while requests are still being answered");
}

/** Tells the other processes a restore starts or ended (their caches follow the change feed by themselves). */
export async function announceRestore(phase: "start" | "end"): Promise<void> {
  await getDatabase().db.execute(sql`select pg_notify(${BACKUP_CHANNEL}, ${`${phase}:${process.pid}:${Math.random().toString(36).slice(2)}`})`);
}

/** Listens for other processes' restores; the returned stop must run before the database closes. */
export async function startMaintenanceFeed(database: Database = getDatabase()): Promise<{ stop: () => Promise<void> }> {
  const own = `:${process.pid}:`;
  const unlisten = await database.listen(BACKUP_CHANNEL, {
    onNotify: (payload) => {
      // PGlite delivers this process's own notifications too: those are the local state already.
      if (database.kind !== "pglite" && !payload.includes(own)) {
        if (payload.startsWith("start:")) state.remoteUntil = Date.now() + MAX_MAINTENANCE_MS;
        else if (payload.startsWith("end:")) state.remoteUntil = 0;
      }
      // A restore ended, here or in another process: the realtime subscribers heard nothing of what
      // it replaced (its rows load with the triggers off). Their streams are closed, as after a
      // restart: the SDK reconnects and resubscribes, and the live pages reload what they show
      // (docs/decisions/0065). Every process hears the end, its own included.
      if (payload.startsWith("end:")) closeRealtimeStreams();
    },
  });
  return { stop: unlisten };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function maintenancePage(): string {
  return `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Sitio en mantenimiento — Forja</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2937;line-height:1.5}h1{font-size:1.5rem}</style></head>
<body><main><h1>Sitio en mantenimiento</h1><p>${escapeHtml(MAINTENANCE_MESSAGE)}</p><p>Vuelva a cargar esta página en unos minutos.</p></main></body></html>`;
}

/**
 * The server's first middleware: in maintenance every request is answered 503 here; otherwise it
 * is counted while it runs (the restore waits for those). Realtime streams are not counted: they
 * never end by themselves.
 */
export function maintenanceGate(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (inMaintenance()) {
    const api = (req.url ?? "").startsWith("/api/");
    res.statusCode = 503;
    res.setHeader("Retry-After", String(MAINTENANCE_RETRY_AFTER_SECONDS));
    res.setHeader("Cache-Control", "no-store");
    if (api) {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(JSON.stringify(pocketBaseError(503, MAINTENANCE_MESSAGE)));
    } else {
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(req.method === "HEAD" ? undefined : maintenancePage());
    }
    return;
  }
  if ((req.url ?? "").startsWith("/api/realtime")) return next();
  state.inFlight += 1;
  let done = false;
  res.once("close", () => {
    if (done) return;
    done = true;
    state.inFlight -= 1;
  });
  next();
}
