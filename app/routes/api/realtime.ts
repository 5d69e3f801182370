import type { Route } from "./+types/realtime";
import { readBoundedText } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { connectRealtimeClient, subscribeRealtimeClient, SUBSCRIPTION_LIMITS, type RealtimeAuth, type SubscribeStatus } from "~/services/realtime/index.server";
import { AUTH_API_MESSAGES, pocketBaseError, type PocketBaseError } from "~/services/records/auth-records.server";
import { readTokenAuth } from "./record-auth.server";

// GET /api/realtime (an SSE stream; the first event, PB_CONNECT, carries the client id) and
// POST /api/realtime {clientId, subscriptions} — PocketBase's realtime API (apis/realtime.go), as the
// official `pocketbase` SDK uses it unchanged. Who the client is comes from the POST's Authorization
// token (not from cookies: the browser's pages hold a short-lived token, docs/decisions/0020).

const MESSAGES = {
  missingClient: "Missing or invalid client id.",
  invalidClient: "Invalid realtime client.",
  authMismatch: "The current and the previous request authorization don't match.",
} as const;

export function loader({ request, context }: Route.LoaderArgs) {
  const { body } = connectRealtimeClient({ ip: requestMeta(request, context).ip, signal: request.signal });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

const error = ({ status, ...body }: PocketBaseError) => Response.json({ status, ...body }, { status, headers: { "Cache-Control": "no-store" } });

/** 1 000 subscriptions of 2 500 characters, JSON-quoted, and the client id: a little over 2.5 MB. */
const MAX_SUBSCRIBE_BODY_BYTES = 3 * 1024 * 1024;

type SubscribeForm = { ok: true; clientId: string; subscriptions: string[] } | { ok: false; error: PocketBaseError };

/** PocketBase's binding and validation of `{clientId, subscriptions}`. */
async function readSubscribeForm(request: Request): Promise<SubscribeForm> {
  let body: unknown;
  const text = await readBoundedText(request, MAX_SUBSCRIBE_BODY_BYTES);
  if (text === "too-large") return { ok: false, error: pocketBaseError(413, AUTH_API_MESSAGES.tooLarge) };
  try {
    if (text === null) throw new Error("unreadable");
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  const { clientId, subscriptions = [] } = body as { clientId?: unknown; subscriptions?: unknown };
  const data: Record<string, { code: string; message: string }> = {};
  if (typeof clientId !== "string" || clientId === "") data.clientId = { code: "validation_required", message: "Cannot be blank." };
  else if (clientId.length > SUBSCRIPTION_LIMITS.clientId) data.clientId = { code: "validation_length_out_of_range", message: `The length must be between 1 and ${SUBSCRIPTION_LIMITS.clientId}.` };
  const list = subscriptions === null ? [] : subscriptions;
  if (!Array.isArray(list) || list.some((item) => typeof item !== "string")) {
    return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  }
  if (list.length > SUBSCRIPTION_LIMITS.count) {
    data.subscriptions = { code: "validation_length_out_of_range", message: `The length must be between 0 and ${SUBSCRIPTION_LIMITS.count}.` };
  } else if (list.some((item: string) => item.length > SUBSCRIPTION_LIMITS.length || /[\r\n\0]/.test(item))) {
    // A line break would end the SSE event's name; PocketBase refuses only the length.
    data.subscriptions = { code: "validation_invalid_subscription", message: "Invalid subscription." };
  }
  if (Object.keys(data).length > 0) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.validateBody, data) };
  return { ok: true, clientId: clientId as string, subscriptions: list as string[] };
}

const REFUSALS: Record<Exclude<SubscribeStatus, "ok">, PocketBaseError> = {
  "unknown-client": pocketBaseError(404, MESSAGES.missingClient),
  "other-address": pocketBaseError(400, MESSAGES.invalidClient),
  "other-auth": pocketBaseError(403, MESSAGES.authMismatch),
  "too-large": pocketBaseError(400, AUTH_API_MESSAGES.validateBody, {
    subscriptions: { code: "validation_too_large", message: "The subscriptions are too large to pass to the process holding this client." },
  }),
};

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return error(pocketBaseError(405, "Method Not Allowed."));
  const form = await readSubscribeForm(request);
  if (!form.ok) return error(form.error);
  const tokenAuth = await readTokenAuth(request);
  const auth: RealtimeAuth | null = tokenAuth
    ? {
        collection: tokenAuth.claims.collection,
        id: tokenAuth.claims.id,
        sessionId: tokenAuth.claims.sid,
        expiresAt: new Date(Math.min(tokenAuth.claims.exp * 1000, tokenAuth.session.sessionExpiresAt.getTime())),
      }
    : null;
  const status = await subscribeRealtimeClient(form.clientId, { ip: requestMeta(request, context).ip, auth, subscriptions: form.subscriptions });
  if (status !== "ok") return error(REFUSALS[status]);
  return new Response(null, { status: 204 });
}
