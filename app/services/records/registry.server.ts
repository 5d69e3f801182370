import type { RecordCollection } from "./collection.server";

// The record collections this server serves, registered once by the composition root
// (app/hooks.server.ts), which knows every feature: the record routes, batch and realtime read
// them here, so a collection is added in one place.

const holder = globalThis as typeof globalThis & { __forjaRecordCollections?: readonly RecordCollection[] };

export function registerRecordCollections(collections: readonly RecordCollection[]): void {
  holder.__forjaRecordCollections = collections;
}

export function recordCollections(): readonly RecordCollection[] {
  return holder.__forjaRecordCollections ?? [];
}
