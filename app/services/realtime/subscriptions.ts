// PocketBase's realtime subscriptions (tools/subscriptions/client.go): a subscription is a topic —
// `{collection}/*`, `{collection}/{id}`, a bare `{collection}`, or a named channel such as `@oauth2` —
// optionally followed by `?options=<json {query, headers}>`. An event for a record is sent under
// the subscription's full text, so the client can tell its subscriptions apart.

export interface SubscriptionOptions {
  query: Record<string, string>;
  headers: Record<string, string>;
}

export interface Subscription {
  /** The text the client subscribed with: the SSE event's name. */
  name: string;
  /** The part before `?`, e.g. "cotizaciones/*". */
  topic: string;
  options: SubscriptionOptions;
}

/** PocketBase's limits on POST /api/realtime (apis/realtime.go). */
export const SUBSCRIPTION_LIMITS = { count: 1000, length: 2500, clientId: 255 } as const;

const asStrings = (value: unknown): Record<string, string> => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === "string" ? item : JSON.stringify(item)]));
};

/** Reads one subscription; options that are not valid JSON are ignored, as PocketBase does. */
export function parseSubscription(name: string): Subscription {
  const mark = name.indexOf("?");
  const topic = mark < 0 ? name : name.slice(0, mark);
  let options: SubscriptionOptions = { query: {}, headers: {} };
  if (mark >= 0) {
    const raw = new URLSearchParams(name.slice(mark + 1)).get("options");
    if (raw) {
      try {
        const parsed = JSON.parse(raw) as { query?: unknown; headers?: unknown };
        options = { query: asStrings(parsed?.query), headers: asStrings(parsed?.headers) };
      } catch {
        // PocketBase ignores options it cannot read.
      }
    }
  }
  return { name, topic, options };
}

/** The topics under which a record event is sent: the record's own and its collection's, by name and by id. */
export function recordTopics(collection: { id: string; name: string }, recordId: string): Set<string> {
  return new Set([collection.name, collection.id].flatMap((key) => [`${key}/${recordId}`, `${key}/*`, key]));
}
