// The staff dashboard's "Estado del sistema": checkHealth() (http.ts, the seed's health wrapper)
// run from the staff member's browser against the site's own /api/health, read into what the
// panel shows. Browser-safe. Why in the browser: docs/decisions/0033.
import { checkHealth, http, HttpError, type HttpClient } from "./http";

export type SystemStatus =
  | {
      ok: true;
      /** "PGlite (integrada)" or "PostgreSQL". */
      database: string | null;
      /** The server's own round trip to the database (the health endpoint's latencyMs). */
      databaseMs: number | null;
      /** Browser → server → database → browser, as this probe timed it. */
      totalMs: number;
      checkedAt: Date;
    }
  | {
      ok: false;
      /** What failed, in Spanish. */
      title: string;
      /** The server's explanation (e.g. the database driver's error), when it gave one. */
      detail: string | null;
      totalMs: number;
      checkedAt: Date;
    };

const DATABASE_NAMES: Record<string, string> = { pglite: "PGlite (integrada)", postgres: "PostgreSQL" };

/** A view of `client` that remembers what its last GET answered, so the probe can read the body checkHealth drops. */
function recording(client: HttpClient) {
  let answer: { body?: unknown; error?: unknown } = {};
  const get: HttpClient["get"] = async <T,>(path: string, opts?: Parameters<HttpClient["get"]>[1]) => {
    try {
      const body = await client.get<T>(path, opts);
      answer = { body };
      return body;
    } catch (error) {
      answer = { error };
      throw error;
    }
  };
  return { client: { ...client, get } satisfies HttpClient, last: () => answer };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export async function probeSystemStatus(client: HttpClient = http, now: () => number = () => performance.now()): Promise<SystemStatus> {
  const probe = recording(client);
  const started = now();
  const result = await checkHealth(probe.client);
  const totalMs = Math.round((now() - started) * 10) / 10;
  const checkedAt = new Date();
  const { body, error } = probe.last();
  if (result.success) {
    const data = isRecord(body) && isRecord(body.data) ? body.data : {};
    return {
      ok: true,
      database: typeof data.database === "string" ? (DATABASE_NAMES[data.database] ?? data.database) : null,
      databaseMs: typeof data.latencyMs === "number" ? data.latencyMs : null,
      totalMs,
      checkedAt,
    };
  }
  const detail = typeof result.details === "string" && result.details ? result.details : null;
  // A JSON answer from our server (503 when the database does not answer) carries a Spanish message;
  // anything else means the server could not be reached at all.
  const answered = error instanceof HttpError && isRecord(error.data) && typeof error.data.code === "number";
  if (answered && error.statusCode === 503) return { ok: false, title: "El sitio responde, pero la base de datos no.", detail, totalMs, checkedAt };
  if (answered) return { ok: false, title: `El servidor respondió con un error (HTTP ${error.statusCode}).`, detail: detail ?? result.message, totalMs, checkedAt };
  return { ok: false, title: "No se pudo contactar al servidor: el sitio está caído o se perdió la conexión.", detail: null, totalMs, checkedAt };
}
