import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { getDatabase, getDb, withTransaction, type Database } from "~/db/client.server";
import { deletedRecords } from "~/db/schema/realtime";
import { logger } from "~/lib/logger.server";
import type { RecordAuth } from "~/services/records/collection.server";
import { recordCollections } from "~/services/records/registry.server";
import { findRecordCollection, parseFieldsParam, toRecordJson } from "~/services/records/records.server";
import { parseSubscription, recordTopics, type Subscription } from "./subscriptions";

// PocketBase's realtime broker (apis/realtime.go) over Forja's record collections, for every process
// that shares the database: a commit on a table behind a collection sends NOTIFY forja_registros
// (migration 0009); each process hears it, finds its own clients subscribed to the record or its
// collection, checks each one's view rule in one query (the collection's own rule, the pages' rule)
// and writes the event to their SSE streams. Decision record: docs/decisions/0020-realtime.md.

export const REALTIME_CHANNEL = "forja_registros";

/** PocketBase's timeouts: a stream with nothing to send for 5 minutes, or open 30, is closed; the SDK reconnects. */
export const REALTIME_TIMEOUTS = { idleMs: 5 * 60_000, maxMs: 30 * 60_000 } as const;

/** A stream that falls this far behind (bytes queued) is closed instead of growing memory. */
const MAX_QUEUED_BYTES = 1 << 20;

/** Who a realtime client is: the account of the token it subscribed with, tied to that token's session. */
export interface RealtimeAuth {
  collection: NonNullable<RecordAuth>["collection"];
  id: string;
  sessionId: string;
  /** The token's expiry (or the session's, if sooner): after it the client is a guest again. */
  expiresAt: Date;
}

export interface RealtimeClient {
  id: string;
  ip: string;
  auth: RealtimeAuth | null;
  subscriptions: Map<string, Subscription>;
}

interface Connection extends RealtimeClient {
  write(chunk: string): boolean;
  close(): void;
  idle: NodeJS.Timeout;
  max: NodeJS.Timeout;
}

/** Which of these sessions are still alive and of their kind; the accounts feature answers (hooks.server.ts). */
export type SessionCheck = (sessions: readonly RealtimeAuth[]) => Promise<boolean[]>;

interface HubState {
  connections: Map<string, Connection>;
  sessionCheck: SessionCheck | null;
  listening: { stop: () => Promise<void> } | null;
  queue: Promise<void>;
}

// On globalThis, like the database: the dev server's module reloads share one hub.
const holder = globalThis as typeof globalThis & { __forjaRealtime?: HubState };
const hub = (holder.__forjaRealtime ??= { connections: new Map(), sessionCheck: null, listening: null, queue: Promise.resolve() });

/** How subscribers' sessions are checked (the composition root, app/hooks.server.ts, says). */
export function registerRealtimeSessionCheck(sessionCheck: SessionCheck): void {
  hub.sessionCheck = sessionCheck;
}

function frame(clientId: string, name: string, data: string): string {
  return `id:${clientId}\nevent:${name}\ndata:${data}\n\n`;
}

function send(connection: Connection, name: string, data: string): void {
  if (!connection.write(frame(connection.id, name, data))) return;
  connection.idle.refresh();
}

/**
 * A new SSE client. Returns the response body: the first event is PB_CONNECT with the client id;
 * the stream ends on the idle or maximum timeout, when the reader goes away, or when the hub stops.
 */
export function connectRealtimeClient(options: { ip: string; signal?: AbortSignal }): { clientId: string; body: ReadableStream<Uint8Array> } {
  const clientId = randomBytes(20).toString("base64url");
  const encoder = new TextEncoder();
  let connection: Connection | undefined;
  let finished = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    if (connection) {
      clearTimeout(connection.idle);
      clearTimeout(connection.max);
    }
    hub.connections.delete(clientId);
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (finished) return;
        finish();
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      };
      connection = {
        id: clientId,
        ip: options.ip,
        auth: null,
        subscriptions: new Map(),
        write(chunk) {
          if (finished) return false;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) {
            logger.warn({ clientId }, "realtime: client too slow, closing its stream");
            close();
            return false;
          }
          controller.enqueue(encoder.encode(chunk));
          return true;
        },
        close,
        idle: setTimeout(close, REALTIME_TIMEOUTS.idleMs),
        max: setTimeout(close, REALTIME_TIMEOUTS.maxMs),
      };
      hub.connections.set(clientId, connection);
      options.signal?.addEventListener("abort", close, { once: true });
      send(connection, "PB_CONNECT", JSON.stringify({ clientId }));
    },
    cancel: finish,
  }, { highWaterMark: 0, size: (chunk) => chunk.byteLength });
  return { clientId, body };
}

export function realtimeClientCount(): number {
  return hub.connections.size;
}

// ——— delivery ———

interface Target {
  connection: Connection;
  subscription: Subscription;
}

const authKey = (auth: RealtimeAuth) => `${auth.collection}:${auth.id}`;

/** The clients' auths that are still valid now; an expired or revoked one makes its client a guest, as PocketBase unsets it. */
async function validateAuths(connections: readonly Connection[], now: Date): Promise<void> {
  const authed = connections.filter((connection) => connection.auth);
  for (const connection of authed) if (connection.auth!.expiresAt <= now) connection.auth = null;
  const checking = authed.filter((connection) => connection.auth);
  if (checking.length === 0 || !hub.sessionCheck) return;
  const alive = await hub.sessionCheck(checking.map((connection) => connection.auth!));
  checking.forEach((connection, index) => {
    if (!alive[index]) connection.auth = null;
  });
}

async function deliverRecordEvent(collectionName: string, action: "create" | "update" | "delete", recordId: string, deletedSeq: number | null): Promise<void> {
  const collection = findRecordCollection(recordCollections(), collectionName);
  if (!collection?.events || hub.connections.size === 0) return;
  const topics = recordTopics(collection, recordId);
  const targets: Target[] = [];
  for (const connection of hub.connections.values()) {
    for (const subscription of connection.subscriptions.values()) if (topics.has(subscription.topic)) targets.push({ connection, subscription });
  }
  if (targets.length === 0) return;

  const connections = [...new Set(targets.map((target) => target.connection))];
  await validateAuths(connections, new Date());

  const auths = new Map<string, RealtimeAuth>();
  for (const connection of connections) if (connection.auth) auths.set(authKey(connection.auth), connection.auth);
  const authList = [...auths.values()];
  const anyGuest = connections.some((connection) => !connection.auth);
  const events = collection.events;

  // The record and who may see it are read from one snapshot: with PostgreSQL another commit could
  // otherwise fall between the two reads, and a state someone may not see be sent on the strength
  // of a later one they may.
  const seen = await withTransaction(
    async () => {
      if (action === "delete") {
        const [deleted] = deletedSeq === null ? [] : await getDb().select({ row: deletedRecords.row }).from(deletedRecords).where(eq(deletedRecords.seq, deletedSeq));
        if (!deleted) return null;
        return { record: null, access: await events.whoMayView({ deletedRow: deleted.row }, authList, anyGuest) };
      }
      const record = await events.read(recordId);
      if (!record) return null; // deleted again before we read it: its delete event follows
      return { record, access: await events.whoMayView({ id: recordId }, authList, anyGuest) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  if (!seen) return;
  const { record, access } = seen;
  const allowed = new Set(authList.filter((_, index) => access.auths[index]).map(authKey));

  for (const { connection, subscription } of targets) {
    const mayView = connection.auth ? allowed.has(authKey(connection.auth)) : access.guest;
    if (!mayView) continue;
    // A deleted record is gone: its event names it, its fields are not read back (docs/decisions/0020).
    const json = record ? toRecordJson(collection, record, parseFieldsParam(subscription.options.query.fields ?? null)) : { collectionId: collection.id, collectionName: collection.name, id: recordId };
    send(connection, subscription.name, JSON.stringify({ action, record: json }));
  }
}

/**
 * A message for one client (PocketBase's `@oauth2` redirect), sent if it is subscribed to `topic`
 * and, when `fromIp` is given, if the message comes from the address that opened the stream.
 */
function deliverClientMessage(clientId: string, topic: string, data: unknown, fromIp?: string): void {
  const connection = hub.connections.get(clientId);
  if (!connection || (fromIp !== undefined && connection.ip !== fromIp)) return;
  for (const subscription of connection.subscriptions.values()) {
    if (subscription.topic === topic) send(connection, subscription.name, JSON.stringify(data));
  }
}

/**
 * What processes tell each other on the channel, besides record events (which the triggers send as
 * `collection:action:id`): a message for a client, and a subscription change posted to a process
 * that does not hold the client's stream, with the holder's answer.
 */
type PeerMessage =
  | { kind: "message"; client: string; topic: string; data: unknown; fromIp?: string }
  | { kind: "subscribe"; request: string; client: string; ip: string; auth: (Omit<RealtimeAuth, "expiresAt"> & { expiresAt: string }) | null; subscriptions: string[] }
  | { kind: "answer"; request: string; status: SubscribeStatus };

/** NOTIFY payloads must stay under 8 000 bytes. */
const MAX_PEER_MESSAGE_BYTES = 7_900;

async function tellPeers(message: PeerMessage, database: Database = getDatabase()): Promise<boolean> {
  const payload = JSON.stringify(message);
  if (Buffer.byteLength(payload) > MAX_PEER_MESSAGE_BYTES) return false;
  await database.db.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
  return true;
}

/**
 * Sends `data` to the client `clientId` under `topic`, on whichever process holds its stream; with
 * `fromIp`, only if that is the address that opened the stream. False when the message is too large
 * to pass between processes (nothing is sent).
 */
export async function publishToRealtimeClient(clientId: string, topic: string, data: unknown, options: { fromIp?: string; database?: Database } = {}): Promise<boolean> {
  return tellPeers({ kind: "message", client: clientId, topic, data, fromIp: options.fromIp }, options.database);
}

// ——— subscriptions ———

/** How a subscription change ended: applied, no such client, another address, another account, or too large to forward. */
export type SubscribeStatus = "ok" | "unknown-client" | "other-address" | "other-auth" | "too-large";

/** How long a process waits for the one holding a client's stream to answer a forwarded subscription. */
const FORWARD_TIMEOUT_MS = 3_000;
const pendingAnswers = new Map<string, (status: SubscribeStatus) => void>();

const sameAuth = (a: RealtimeAuth, b: RealtimeAuth | null) => b !== null && a.collection === b.collection && a.id === b.id;

async function applyLocally(connection: Connection, request: { ip: string; auth: RealtimeAuth | null; subscriptions: readonly string[] }): Promise<SubscribeStatus> {
  // As PocketBase: the subscription must come from the address that opened the stream, and only a
  // guest may become someone; an authenticated client stays who it was — while its session lives
  // (signed out, it is a guest again and may sign in as anyone).
  if (connection.ip !== request.ip) return "other-address";
  await validateAuths([connection], new Date());
  if (connection.auth && !sameAuth(connection.auth, request.auth)) return "other-auth";
  connection.auth = request.auth;
  connection.subscriptions = new Map(request.subscriptions.map((name) => [name, parseSubscription(name)]));
  return "ok";
}

/**
 * Replaces a client's auth and subscriptions (POST /api/realtime). The stream may be held by
 * another process behind the same proxy: then the change goes to it over the channel and its
 * answer comes back the same way.
 */
export async function subscribeRealtimeClient(clientId: string, request: { ip: string; auth: RealtimeAuth | null; subscriptions: readonly string[] }): Promise<SubscribeStatus> {
  const local = hub.connections.get(clientId);
  if (local) return applyLocally(local, request);
  // One PGlite process holds its database alone: no other process can hold the stream.
  if (!hub.listening || getDatabase().kind === "pglite") return "unknown-client";
  const id = randomBytes(12).toString("base64url");
  const answer = new Promise<SubscribeStatus>((resolve) => {
    const timer = setTimeout(() => settle("unknown-client"), FORWARD_TIMEOUT_MS);
    function settle(status: SubscribeStatus) {
      clearTimeout(timer);
      pendingAnswers.delete(id);
      resolve(status);
    }
    pendingAnswers.set(id, settle);
  });
  const auth = request.auth ? { ...request.auth, expiresAt: request.auth.expiresAt.toISOString() } : null;
  const sent = await tellPeers({ kind: "subscribe", request: id, client: clientId, ip: request.ip, auth, subscriptions: [...request.subscriptions] });
  if (!sent) {
    pendingAnswers.get(id)?.("too-large");
    return "too-large";
  }
  return answer;
}

async function handlePeerMessage(message: PeerMessage): Promise<void> {
  if (message.kind === "message") return deliverClientMessage(message.client, message.topic, message.data, message.fromIp);
  if (message.kind === "answer") return pendingAnswers.get(message.request)?.(message.status);
  const connection = hub.connections.get(message.client);
  if (!connection) return; // another process holds it, or nobody: the asker times out
  const auth = message.auth ? { ...message.auth, expiresAt: new Date(message.auth.expiresAt) } : null;
  const status = await applyLocally(connection, { ip: message.ip, auth, subscriptions: message.subscriptions });
  await tellPeers({ kind: "answer", request: message.request, status });
}

function handleNotification(payload: string): void {
  hub.queue = hub.queue
    .then(async () => {
      if (payload.startsWith("{")) return handlePeerMessage(JSON.parse(payload) as PeerMessage);
      const [collection, action, recordId, seq] = payload.split(":");
      if (!collection || !recordId || (action !== "create" && action !== "update" && action !== "delete")) return;
      await deliverRecordEvent(collection, action, recordId, seq ? Number(seq) : null);
    })
    .catch((error) => logger.error({ err: error, payload: payload.slice(0, 200) }, "realtime: could not deliver an event"));
}

/** Starts hearing record events; the returned stop closes every stream, then stops listening. */
export async function startRealtime(database: Database = getDatabase()): Promise<{ stop: () => Promise<void> }> {
  const unlisten = await database.listen(REALTIME_CHANNEL, {
    onNotify: handleNotification,
    onState: (listening) => {
      // Events sent while the listener was down are lost: close the streams, so the SDK reconnects,
      // resubscribes and the page reloads what it shows (what PocketBase's clients do after a restart).
      if (!listening) for (const connection of [...hub.connections.values()]) connection.close();
    },
  });
  const listening = {
    stop: async () => {
      closeRealtimeStreams();
      await unlisten();
      await hub.queue;
      if (hub.listening === listening) hub.listening = null;
    },
  };
  hub.listening = listening;
  return listening;
}

/** Ends every open stream (at shutdown, so the HTTP server's close does not wait for them); clients reconnect elsewhere. */
export function closeRealtimeStreams(): void {
  for (const connection of [...hub.connections.values()]) connection.close();
}

/** Waits until every event heard so far has been delivered (tests and the benchmark). */
export function realtimeSettled(): Promise<void> {
  return hub.queue;
}
