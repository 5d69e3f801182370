import PocketBase, { getTokenPayload, type RecordModel } from "pocketbase";
import { HttpError, http } from "../http";

// The browser's realtime client (docs/decisions/0021), loaded only by the live pages through a
// dynamic import() after hydration (use-live-updates.ts), so no public page downloads the SDK.
//
// One official `pocketbase` client per page load, with the SDK's default LocalAuthStore
// (localStorage, as the seed keeps its auth entry). Its token comes from GET /cuenta/tiempo-real:
// the session cookie traded for a record token of the same session that lasts minutes. A few
// minutes before it expires the page asks for a new one and sends its subscriptions again with it
// (the server forgets a subscriber's account when its token expires). Reconnecting after a dropped
// stream is the SDK's own schedule; nothing here retries a connection.

/** A record event as the SDK delivers it, with the subscription it came under. */
export interface LiveEvent {
  topic: string;
  action: string;
  record: Record<string, unknown>;
}

export interface LiveListener {
  onEvent: (event: LiveEvent) => void;
  /** The stream was opened again (after the server closed it or a network drop): events may have been missed. */
  onReconnect: () => void;
}

interface TokenAnswer {
  token: string;
  record: RecordModel;
}

const TOKEN_PATH = "/cuenta/tiempo-real";
/** Ask for a new token this long before the current one expires… */
const REFRESH_AHEAD_MS = 3 * 60_000;
/** …but never sooner than this, and retry this often when asking failed for a reason other than the session. */
const MIN_REFRESH_MS = 30_000;

let client: PocketBase | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let tokenRequest: Promise<boolean> | null = null;
let connects = 0;
const listeners = new Set<LiveListener>();

function sdk(): PocketBase {
  // No arguments but the base URL and language: the SDK picks its LocalAuthStore in a browser.
  client ??= new PocketBase("/", undefined, "es-MX");
  return client;
}

/** The stream's PB_CONNECT: the first one opens it; any later one is a reconnection. */
function onConnect(): void {
  connects += 1;
  if (connects > 1) for (const listener of listeners) listener.onReconnect();
}

function scheduleRefresh(token: string): void {
  clearTimeout(refreshTimer);
  const expiresAt = Number(getTokenPayload(token).exp ?? 0) * 1000;
  const wait = Math.max(MIN_REFRESH_MS, expiresAt - Date.now() - REFRESH_AHEAD_MS);
  refreshTimer = setTimeout(() => void refresh(), wait);
}

/**
 * A fresh token into the auth store. False when there is no session (signed out elsewhere): the
 * store is cleared and the page simply stops being live until it is loaded again.
 */
async function fetchToken(): Promise<boolean> {
  tokenRequest ??= http
    .get<TokenAnswer>(TOKEN_PATH, { key: false })
    .then(({ token, record }) => {
      sdk().authStore.save(token, record);
      scheduleRefresh(token);
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 403)) {
        sdk().authStore.clear();
        return false;
      }
      // A network blip or a restart: try again soon with the token still held.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void refresh(), MIN_REFRESH_MS);
      return sdk().authStore.isValid;
    })
    .finally(() => {
      tokenRequest = null;
    });
  return tokenRequest;
}

/** New token, then the subscriptions sent again under it (taking PB_CONNECT out and back in makes the SDK post them). */
async function refresh(): Promise<void> {
  if (listeners.size === 0) return;
  if (!(await fetchToken()) || listeners.size === 0) return;
  const realtime = sdk().realtime;
  try {
    await realtime.unsubscribe("PB_CONNECT");
    await realtime.subscribe("PB_CONNECT", onConnect);
  } catch {
    // The stream is down: the SDK reconnects on its schedule and posts the subscriptions with the new token then.
  }
}

/**
 * Subscribes `listener` to `topics` ("solicitudes/*", "cotizaciones/{id}", …). Resolves to the
 * function that unsubscribes it; the stream closes when the last listener leaves.
 */
export async function subscribeLive(topics: readonly string[], listener: LiveListener): Promise<() => Promise<void>> {
  const pb = sdk();
  // The first listener of a page asks for a token of its own: the stored one may be another tab's
  // or another account's from before a sign-out.
  if ((listeners.size === 0 || !pb.authStore.isValid) && !(await fetchToken())) return async () => undefined;
  listeners.add(listener);
  const unsubscribers: (() => Promise<void>)[] = [];
  const leave = async () => {
    if (!listeners.delete(listener)) return;
    if (listeners.size > 0) {
      for (const unsubscribe of unsubscribers) await unsubscribe().catch(() => undefined);
      return;
    }
    // The last one: close the stream (the SDK does when nothing is subscribed) and stop refreshing.
    clearTimeout(refreshTimer);
    connects = 0;
    await pb.realtime.unsubscribe().catch(() => undefined);
  };
  try {
    if (listeners.size === 1) await pb.realtime.subscribe("PB_CONNECT", onConnect);
    for (const topic of topics) {
      const unsubscribe = await pb.realtime.subscribe(topic, (data: { action?: string; record?: Record<string, unknown> }) => {
        listener.onEvent({ topic, action: String(data.action ?? ""), record: data.record ?? {} });
      });
      unsubscribers.push(unsubscribe);
    }
  } catch {
    // The first connection failed within the SDK's 15 s (the SDK does not retry a client that never
    // connected), or the server refused the subscriptions: this page is not live, it works by reload.
    await leave();
  }
  return leave;
}
