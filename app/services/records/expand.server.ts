import { inArray, type SQL } from "drizzle-orm";
import type { RecordAuth, RecordCollection } from "./collection.server";
import { findRecordCollection, toRecordJson, type RecordJson } from "./records.server";

// PocketBase's `expand` (core/record_query_expand.go): `expand=cliente,cotizacion.cliente` puts the
// records a relation field points to under the record's `expand` object, nested up to six levels.
// A related record is included only when the caller may view it — the related collection's own
// rule, the one its list and view use — and a path that names no relation is ignored, as
// PocketBase ignores what it cannot expand. Related records are read in one query per relation
// and level, whatever the number of records.

/** PocketBase's limit on nested expands. */
export const MAX_EXPAND_DEPTH = 6;

/** The `expand` parameter as paths (`a.b` → ["a", "b"]), cut at the depth limit; duplicates removed. */
export function parseExpandParam(value: string | null): string[][] {
  if (!value) return [];
  const paths = new Map<string, string[]>();
  for (const part of value.split(",")) {
    const path = part.trim().split(".").map((segment) => segment.trim()).filter(Boolean).slice(0, MAX_EXPAND_DEPTH);
    if (path.length > 0) paths.set(path.join("."), path);
  }
  return [...paths.values()];
}

const relationIds = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string" && item !== "");

/** Adds `expand` to each record of `collection` (in place) for the given paths, as `auth` may see them. */
export async function expandRecords(
  collections: readonly RecordCollection[],
  collection: RecordCollection,
  records: RecordJson[],
  paths: readonly string[][],
  auth: RecordAuth,
): Promise<void> {
  if (records.length === 0 || paths.length === 0) return;
  const byField = new Map<string, string[][]>();
  for (const [field, ...rest] of paths) byField.set(field!, [...(byField.get(field!) ?? []), ...(rest.length > 0 ? [rest] : [])]);

  for (const [field, nested] of byField) {
    const targetName = collection.relations?.[field];
    const target = targetName ? findRecordCollection(collections, targetName) : undefined;
    if (!target) continue;
    const ids = [...new Set(records.flatMap((record) => relationIds(record[field])))];
    if (ids.length === 0) continue;
    const idColumn = target.fields.id!.column as SQL;
    const rows = await target.list({ where: inArray(idColumn, ids), orderBy: [idColumn], limit: ids.length, offset: 0, auth });
    const related = rows.map((row) => toRecordJson(target, row, null));
    await expandRecords(collections, target, related, nested, auth);
    const byId = new Map(related.map((json) => [json.id as string, json]));
    for (const record of records) {
      const value = record[field];
      const found = relationIds(value).flatMap((id) => byId.get(id) ?? []);
      if (found.length === 0) continue;
      record.expand = { ...(record.expand as object | undefined), [field]: Array.isArray(value) ? found : found[0] };
    }
  }
}
