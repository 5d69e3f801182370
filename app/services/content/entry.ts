import type { ContentData } from "./collection";

// What the content store answers about its records (docs/decisions/0037). Types only: the editor
// (in the browser) and the pages (on the server) share them.

/** Who did something to a record; the system (the first load of the demo content) has no id. */
export interface ContentPerson {
  id: string | null;
  name: string;
}

/**
 * Where a record stands: only a draft (never public), published and unchanged, published with
 * pending changes, or pending changes with a publication scheduled.
 */
export type ContentEntryState = "borrador" | "publicado" | "cambios" | "programado";

/** A record as staff see it in the editor: the live data and the draft side by side. */
export interface ContentEntry<T extends ContentData = ContentData> {
  id: string;
  collection: string;
  /** The published record's slug (null while never published). */
  slug: string | null;
  state: ContentEntryState;
  published: T | null;
  publishedAt: Date | null;
  publishedBy: ContentPerson | null;
  draft: T | null;
  draftSavedAt: Date | null;
  draftSavedBy: ContentPerson | null;
  /** Send it back with the next save or publish: a stale number is a conflict, never an overwrite. */
  version: number;
  scheduledAt: Date | null;
  scheduledBy: ContentPerson | null;
  /** Why the last scheduled publication could not happen. */
  scheduleError: string | null;
  /** Who is editing it right now (a lock whose heartbeat has not lapsed), if anyone. */
  lock: { by: ContentPerson; since: Date } | null;
  /** Always exists: cannot be deleted, and its slug cannot change. */
  fixed: boolean;
  created: Date;
  updated: Date;
}

/** A published record as the public sees it. */
export interface ContentRecord<T extends ContentData = ContentData> {
  id: string;
  created: Date;
  /** When its current version was published. */
  updated: Date;
  data: T;
}

/** One published version in a record's history. */
export interface ContentVersion<T extends ContentData = ContentData> {
  number: number;
  data: T;
  publishedAt: Date;
  publishedBy: ContentPerson;
  /** The earlier version this one brought back, when it was a restore. */
  restoredFrom: number | null;
}
