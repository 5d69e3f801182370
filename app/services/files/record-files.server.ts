import type { RecordAuth, RecordCollection, RecordData } from "~/services/records/collection.server";

// What the files API (`GET /api/files/{collection}/{recordId}/{filename}`, docs/decisions/0016)
// needs from a collection whose records name files. The feature that owns the data defines it
// next to its record collection and exports it through its index.server.ts, as with collections.

/** A file ready to send: its bytes as a stream (or in memory when made on the fly) and what to say about it. */
export interface ServedFile {
  /** The name the answer gives it (Content-Disposition), e.g. "100x100_<image>.webp" for a thumb. */
  name: string;
  contentType: string;
  size: number;
  modified?: Date;
  body: ReadableStream<Uint8Array> | Uint8Array;
}

export interface RecordFileSource {
  /** The records the files belong to: found by name or id, shown only as its view rule allows. */
  collection: Pick<RecordCollection, "id" | "name" | "view">;
  /** The record fields that hold file names (PocketBase's file fields). */
  fields: readonly string[];
  /**
   * PocketBase's "protected" file field: served only with a valid file token (`?token=`) whose
   * account the record's view rule lets see it. Unprotected files are served to whoever may view
   * the record (for `productos`, everyone while the product is active).
   */
  protected: boolean;
  /**
   * The file `fileName` of `record` (already checked to be one of its `fields`' names), resized to
   * `thumb` when the field offers that size and the file is an image; null when it cannot be found.
   */
  open(input: { record: RecordData; fileName: string; thumb: string | null; auth: RecordAuth }): Promise<ServedFile | null>;
}

/** Whether `record` names `fileName` in one of `fields` (a single name or a list). */
export function recordNamesFile(record: RecordData, fields: readonly string[], fileName: string): boolean {
  return fields.some((field) => {
    const value = record[field];
    return Array.isArray(value) ? value.includes(fileName) : value === fileName;
  });
}
