import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The change feed on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the triggers
// of migration 0006 notify at commit, the feed turns that into versions, and a live cache keeps a
// value only while its topic's version is current.

import { closeTestDatabase, createTestDatabase } from "../../tests/support/test-database";
import { changeVersion, createLiveCache, startChangeFeed } from "./change-feed.server";
import type { Database } from "./client.server";

let database: Database;
let feed: { stop: () => Promise<void> };

beforeAll(async () => {
  database = await createTestDatabase();
  feed = await startChangeFeed(database);
});

afterAll(async () => {
  await feed?.stop();
  await closeTestDatabase(database);
});

/** PGlite delivers at commit; a PostgreSQL listener gets the message a moment later over its socket. */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const insertProduct = (sku: string) =>
  sql`insert into products (slug, sku, name, category, short_description, price_centavos, unit, stock)
      values (${sku.toLowerCase()}, ${sku}, 'Soporte de prueba', 'Pruebas', 'Soporte para la prueba del aviso de cambios.', 10000, 'pieza', 10)`;

const insertSolicitud = (number: string) =>
  sql`insert into solicitudes (number, type, name, email, description, privacy_accepted_at, form_token)
      values (${number}, 'contacto', 'Ana Prueba', 'ana@example.com', 'Mensaje de prueba del aviso.', now(), ${number})`;

describe("change feed", () => {
  it("gives a version while listening and a new one after a committed write to the topic's tables", async () => {
    const before = changeVersion("catalogo");
    expect(before).toBeDefined();
    await database.db.execute(insertProduct("FEED-001"));
    await waitFor(() => changeVersion("catalogo") !== before, "the catalogue notification");

    const catalogue = changeVersion("catalogo");
    await database.db.execute(sql`update products set stock = stock - 1 where sku = 'FEED-001'`);
    await waitFor(() => changeVersion("catalogo") !== catalogue, "the stock notification");
  });

  it("leaves other topics alone and ignores a rolled-back transaction", async () => {
    const catalogue = changeVersion("catalogo");
    const forms = changeVersion("solicitudes");
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`update products set stock = 0 where sku = 'FEED-001'`);
        throw new Error("rollback on purpose");
      }),
    ).rejects.toThrow("rollback on purpose");
    await database.db.execute(insertSolicitud("SOL-2026-9001"));
    await waitFor(() => changeVersion("solicitudes") !== forms, "the solicitudes notification");
    // The solicitud's notification came after the rolled-back one would have: none is pending.
    expect(changeVersion("catalogo")).toBe(catalogue);
    const result = (await database.db.execute(sql`select stock from products where sku = 'FEED-001'`)) as unknown as { rows: { stock: number }[] };
    expect(result.rows[0]?.stock).toBe(9);
  });

  it("notifies for image rows too, since product pages show them", async () => {
    const before = changeVersion("catalogo");
    await database.db.execute(sql`
      insert into product_images (product_id, alt, width, height, variants)
      select id, 'Vista frontal', 800, 600, '[]'::jsonb from products where sku = 'FEED-001'`);
    await waitFor(() => changeVersion("catalogo") !== before, "the image notification");
  });
});

describe("createLiveCache", () => {
  it("shares one computation per key and computes again only after a change", async () => {
    const cache = createLiveCache<string>("catalogo", 10);
    let computed = 0;
    const compute = async () => `valor ${++computed}`;
    const [first, second] = await Promise.all([cache.get("a", compute), cache.get("a", compute)]);
    expect([first, second]).toEqual(["valor 1", "valor 1"]);
    expect(await cache.get("a", compute)).toBe("valor 1");

    const before = changeVersion("catalogo");
    await database.db.execute(insertProduct("FEED-002"));
    await waitFor(() => changeVersion("catalogo") !== before, "the catalogue notification");
    expect(await cache.get("a", compute)).toBe("valor 2");
  });

  it("does not keep a value computed while the data changed underneath it", async () => {
    const cache = createLiveCache<string>("solicitudes", 10);
    let computed = 0;
    const value = await cache.get("total", async () => {
      const before = changeVersion("solicitudes");
      await database.db.execute(insertSolicitud(`SOL-2026-91${++computed}0`));
      await waitFor(() => changeVersion("solicitudes") !== before, "the solicitudes notification");
      return `cuenta ${computed}`;
    });
    expect(value).toBe("cuenta 1");
    // Computed at the old version: the next read computes again, at the current one.
    expect(await cache.get("total", async () => `cuenta ${++computed}`)).toBe("cuenta 2");
    expect(await cache.get("total", async () => `cuenta ${++computed}`)).toBe("cuenta 2");
  });

  it("forgets undefined values and failures, and evicts the least recently used key", async () => {
    const cache = createLiveCache<string | undefined>("catalogo", 2);
    let calls = 0;
    await cache.get("nada", async () => (calls++, undefined));
    await cache.get("nada", async () => (calls++, undefined));
    expect(calls).toBe(2);
    await expect(cache.get("falla", () => Promise.reject(new Error("sin base")))).rejects.toThrow("sin base");
    expect(await cache.get("falla", async () => "bien")).toBe("bien");

    // What `keep` refuses is returned but not kept.
    const pages = createLiveCache<string>("catalogo", 5);
    expect(await pages.get("404", async () => "no encontrada", (value) => value !== "no encontrada")).toBe("no encontrada");
    expect(await pages.get("404", async () => "otra vez", (value) => value !== "no encontrada")).toBe("otra vez");
    expect(await pages.get("404", async () => "ya no se calcula")).toBe("otra vez");
    await cache.get("b", async () => "b");
    await cache.get("falla", async () => "no se usa"); // touched: now the most recent
    await cache.get("c", async () => "c"); // evicts "b", the least recently used
    expect(cache.size).toBe(2);
    expect(await cache.get("falla", async () => "otra vez")).toBe("bien");
    expect(await cache.get("b", async () => "b de nuevo")).toBe("b de nuevo");
  });

  it("keeps nothing while the feed is stopped, and starts over when it is back", async () => {
    const cache = createLiveCache<number>("catalogo", 10);
    let computed = 0;
    await cache.get("k", async () => ++computed);
    await feed.stop();
    try {
      expect(changeVersion("catalogo")).toBeUndefined();
      expect(await cache.get("k", async () => ++computed)).toBe(2);
      expect(await cache.get("k", async () => ++computed)).toBe(3);
    } finally {
      feed = await startChangeFeed(database);
    }
    // What was kept before the gap may have missed a change: it is computed again.
    expect(await cache.get("k", async () => ++computed)).toBe(4);
    expect(await cache.get("k", async () => ++computed)).toBe(4);
  });
});

describe("database.listen", () => {
  it("reports when notifications cannot arrive and listens again when they can", async () => {
    const states: boolean[] = [];
    const payloads: string[] = [];
    const stop = await database.listen("forja_prueba", { onNotify: (payload) => payloads.push(payload), onState: (listening) => states.push(listening) });
    try {
      expect(states).toEqual([true]);
      if (database.kind === "postgres") {
        // Ends the listening connection from the server side, as a restart or a network cut would.
        await database.db.execute(sql`
          select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen "forja_prueba"%'`);
        await waitFor(() => states.length >= 3, "the listener to reconnect");
        expect(states).toEqual([true, false, true]);
      }
      await database.db.execute(sql`select pg_notify('forja_prueba', 'hola')`);
      await waitFor(() => payloads.length > 0, "the notification");
      expect(payloads).toEqual(["hola"]);
    } finally {
      await stop();
    }
  });

  it("keeps quiet while its own heartbeat comes back, and reconnects when it stops coming back", async () => {
    const quick = { heartbeatMs: 40, timeoutMs: 300 };
    const healthy = { states: [] as boolean[], payloads: [] as string[] };
    const stopHealthy = await database.listen("forja_latido", { onNotify: (p) => healthy.payloads.push(p), onState: (s) => healthy.states.push(s) }, quick);
    // A connection that stopped hearing (cut without a close, or a pooler that lost the LISTEN):
    // here, heartbeats that are never delivered.
    const deaf = { states: [] as boolean[] };
    const stopDeaf = await database.listen("forja_sordo", { onNotify: () => {}, onState: (s) => deaf.states.push(s) }, { ...quick, send: async () => {} });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Heartbeats are not changes, and a listener that hears them stays put.
      expect(healthy).toEqual({ states: [true], payloads: [] });
      if (database.kind === "postgres") {
        await waitFor(() => deaf.states.length >= 3, "the deaf listener to reconnect");
        expect(deaf.states.slice(0, 3)).toEqual([true, false, true]);
      } else {
        // PGlite runs in this process: nothing can cut it off, so there is no heartbeat to miss.
        expect(deaf.states).toEqual([true]);
      }
    } finally {
      await stopHealthy();
      await stopDeaf();
    }
  });
});
