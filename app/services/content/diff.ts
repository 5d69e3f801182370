import type { RichTextDocument } from "~/lib/rich-text/document";
import { plainText } from "~/lib/rich-text/plain-text";
import type { ContentData, ContentField } from "./collection";

// The difference between two versions of a record, field by field, for the history screen. Text
// is compared sentence by sentence: a changed sentence shows as that sentence removed and its new
// wording added, not the whole text twice. Rich text (the editor's JSON) is compared by the plain
// text of each block. Pure, so the editor can also compare the draft with the live data.

export type DiffPart = { op: "same" | "removed" | "added"; text: string };

export type FieldDiff =
  | { field: string; label: string; kind: "text"; parts: DiffPart[] }
  | { field: string; label: string; kind: "value"; before: unknown; after: unknown };

/** A sequence diff (longest common subsequence), small inputs: a record's sentences or list items. */
export function diffSequence(before: readonly string[], after: readonly string[]): DiffPart[] {
  const n = before.length;
  const m = after.length;
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lengths[i]![j] = before[i] === after[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      parts.push({ op: "same", text: before[i]! });
      i += 1;
      j += 1;
    } else if (j < m && (i === n || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      parts.push({ op: "added", text: after[j]! });
      j += 1;
    } else {
      parts.push({ op: "removed", text: before[i]! });
      i += 1;
    }
  }
  // Within each run of changes, what was removed reads before what replaced it.
  const ordered: DiffPart[] = [];
  for (let k = 0; k < parts.length; ) {
    if (parts[k]!.op === "same") {
      ordered.push(parts[k]!);
      k += 1;
      continue;
    }
    let end = k;
    while (end < parts.length && parts[end]!.op !== "same") end += 1;
    const run = parts.slice(k, end);
    ordered.push(...run.filter((part) => part.op === "removed"), ...run.filter((part) => part.op === "added"));
    k = end;
  }
  return ordered;
}

/** The sentences of a text, paragraph by paragraph: "Uno. ¿Dos? Tres…" → ["Uno.", "¿Dos?", "Tres…"]. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    const matches = paragraph.match(/[^.!?…]+(?:[.!?…]+["'»”’)\]]*|$)/g) ?? [];
    for (const sentence of matches) {
      const trimmed = sentence.trim();
      if (trimmed) out.push(trimmed);
    }
  }
  return out;
}

/** The plain text of each block of a rich-text document (paragraphs, headings, list items, table rows). */
export function richTextBlocks(value: unknown): string[] {
  if (typeof value === "string") {
    try {
      return richTextBlocks(JSON.parse(value));
    } catch {
      return value.split(/\n+/);
    }
  }
  if (!value || typeof value !== "object") return [];
  return plainText(value as RichTextDocument).split("\n");
}

/** One list item or small record as one line of text, for comparing lists. */
function itemText(item: unknown, fields: readonly ContentField[] | undefined): string {
  if (item === null || typeof item !== "object") return String(item ?? "");
  const record = item as ContentData;
  const names = fields?.map((field) => field.name) ?? Object.keys(record);
  return names
    .map((name) => record[name])
    .filter((value) => value !== undefined && value !== null && value !== "")
    .map((value) => (typeof value === "object" ? canonicalJson(value) : String(value)))
    .join(" · ");
}

function textUnits(field: ContentField, value: unknown): string[] | null {
  switch (field.kind) {
    case "text":
    case "textarea":
      // A field this diff does not know (shown as text) may hold a number or a flag: compared as a value.
      if (value === undefined || value === null) return [];
      return typeof value === "string" ? sentences(value) : null;
    case "richtext":
      return richTextBlocks(value).flatMap(sentences);
    case "list":
    case "items":
      return (Array.isArray(value) ? value : []).map((item) => itemText(item, field.items));
    default:
      return null;
  }
}

/** JSON with object keys in order: jsonb hands a record back with its keys reordered, which is no change. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : inner,
  );
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** What changed from `before` to `after`, in the order of the collection's fields (fields it does not name come last). */
export function diffContent(fields: readonly ContentField[], before: ContentData | null, after: ContentData | null): FieldDiff[] {
  const a = before ?? {};
  const b = after ?? {};
  const known = new Set(fields.map((field) => field.name));
  const extra = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((name) => !known.has(name));
  const all: ContentField[] = [...fields, ...extra.map((name): ContentField => ({ name, label: name, kind: "text" }))];
  const diffs: FieldDiff[] = [];
  for (const field of all) {
    if (same(a[field.name], b[field.name])) continue;
    const beforeUnits = textUnits(field, a[field.name]);
    const afterUnits = textUnits(field, b[field.name]);
    if (beforeUnits && afterUnits) {
      diffs.push({ field: field.name, label: field.label, kind: "text", parts: diffSequence(beforeUnits, afterUnits) });
    } else {
      diffs.push({ field: field.name, label: field.label, kind: "value", before: a[field.name] ?? null, after: b[field.name] ?? null });
    }
  }
  return diffs;
}
