import { AsyncLocalStorage } from "node:async_hooks";

// The query string of the record API request being served (`?draft=true`, …), for a collection
// whose reads and writes depend on it (the content collections, docs/decisions/0037). Kept beside
// the call instead of in each method's arguments so wrappers around a collection (the staff-role
// gate) pass it on untouched. Outside a record request (realtime reads) it is empty.

const storage = new AsyncLocalStorage<URLSearchParams>();

export function withRecordQuery<T>(params: URLSearchParams, work: () => Promise<T>): Promise<T> {
  return storage.run(params, work);
}

/** The current record request's query string (empty outside one). */
export function recordQuery(): URLSearchParams {
  return storage.getStore() ?? new URLSearchParams();
}
