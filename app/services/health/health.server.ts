import { getDatabase } from "~/db/client.server";

const PING_TIMEOUT_MS = 3_000;

export type HealthReport =
  | { status: 200; body: { code: 200; message: "API is healthy."; data: { database: string; latencyMs: number; uptimeSeconds: number } } }
  | { status: 503; body: { code: 503; message: string; details: string } };

/** Health after a real database round trip, bounded in time so a hung database still answers 503. */
export async function getHealth(): Promise<HealthReport> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const database = getDatabase();
    await Promise.race([
      database.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`sin respuesta en ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      }),
    ]);
    return {
      status: 200,
      body: {
        code: 200,
        message: "API is healthy.",
        data: {
          database: database.kind,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
          uptimeSeconds: Math.round(process.uptime()),
        },
      },
    };
  } catch (error) {
    return {
      status: 503,
      body: {
        code: 503,
        message: "La base de datos no responde.",
        details: error instanceof Error ? error.message : String(error),
      },
    };
  } finally {
    clearTimeout(timer);
  }
}
