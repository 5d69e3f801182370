import { getDatabase, type Database } from "./client.server";

// Which cached data is still current. Triggers on the tables that feed a cache (migration 0006)
// send NOTIFY forja_cambios with a topic when a writing transaction commits; this module counts
// them per topic. A cache entry remembers the topic's version it was computed at and is used only
// while that version is current, so a stock change in any process that shares the database is seen
// by the next request here. While notifications cannot arrive (before start, or while a PostgreSQL
// listening connection is lost) there is no version and caches compute every time.
// Decision record: docs/decisions/0011-live-data-cache.md.

export const CHANGE_CHANNEL = "forja_cambios";

/**
 * Topics sent by the triggers: keep in step with drizzle/0006_change_notifications.sql and
 * drizzle/0014_content.sql ("contenido" for any public content, "contenido:<collection>" for one)
 * and drizzle/0017_system_settings.sql ("sistema": the technical settings).
 */
export type ChangeTopic = "catalogo" | "solicitudes" | "sistema" | "contenido" | `contenido:${string}`;

interface FeedState {
  listening: boolean;
  /** Bumped whenever listening starts or stops: what was cached before may have missed a change. */
  epoch: number;
  counts: Map<string, number>;
}

// Kept on globalThis so the dev server's module reloads share one feed, like the database.
const holder = globalThis as typeof globalThis & { __forjaChangeFeed?: FeedState };
const state = (holder.__forjaChangeFeed ??= { listening: false, epoch: 0, counts: new Map() });

function setListening(listening: boolean): void {
  state.listening = listening;
  state.epoch += 1;
}

/** Starts listening for change notifications; the returned stop must run before the database closes. */
export async function startChangeFeed(database: Database = getDatabase()): Promise<{ stop: () => Promise<void> }> {
  const unlisten = await database.listen(CHANGE_CHANNEL, {
    onNotify: (topic) => state.counts.set(topic, (state.counts.get(topic) ?? 0) + 1),
    onState: setListening,
  });
  return {
    stop: async () => {
      setListening(false);
      await unlisten();
    },
  };
}

/**
 * A change this process has just committed: caches here stop using what they computed before at
 * once, without waiting for the notification to come back (over PostgreSQL's socket it takes a
 * moment; it bumps the version again when it comes, costing one more computation). Call it after
 * the commit (afterCommit), never inside the transaction.
 */
export function noteLocalChange(...topics: ChangeTopic[]): void {
  if (!state.listening) return;
  for (const topic of topics) state.counts.set(topic, (state.counts.get(topic) ?? 0) + 1);
}

/** The current version of a topic's data, or undefined when changes cannot be followed right now. */
export function changeVersion(topic: ChangeTopic): string | undefined {
  return changeVersionOf([topic]);
}

/**
 * The current version of data computed from several topics (a page showing the business facts and
 * the services): it changes when any of them does. Undefined when changes cannot be followed.
 */
export function changeVersionOf(topics: readonly ChangeTopic[]): string | undefined {
  if (!state.listening) return undefined;
  let version = String(state.epoch);
  for (const topic of topics) version += `.${state.counts.get(topic) ?? 0}`;
  return version;
}

interface Entry<V> {
  version: string;
  value: Promise<V>;
}

/**
 * A bounded map of values computed from the tables of `topic` (or of several topics), each used only while the data it was
 * computed from is unchanged. Concurrent requests for the same key share one computation. A value
 * that `keep` refuses (by default undefined, e.g. a page that is not cacheable) or a rejection is
 * not kept.
 */
export function createLiveCache<V>(topic: ChangeTopic | readonly ChangeTopic[], maxEntries: number) {
  const entries = new Map<string, Entry<V>>();
  const topics: readonly ChangeTopic[] = typeof topic === "string" ? [topic] : topic;

  return {
    get(key: string, compute: () => Promise<V>, keep: (value: V) => boolean = (value) => value !== undefined): Promise<V> {
      // Read before computing: a change that commits meanwhile makes this entry stale at once.
      const version = changeVersionOf(topics);
      if (version === undefined) return compute();
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
        entries.delete(key);
        entries.set(key, hit);
        return hit.value;
      }
      const entry: Entry<V> = { version, value: compute() };
      entries.delete(key);
      entries.set(key, entry);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      entry.value.then((value) => keep(value) || forget(), forget);
      return entry.value;
    },
    get size(): number {
      return entries.size;
    },
  };
}
