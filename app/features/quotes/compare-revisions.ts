import type { QuoteLine } from "./types";

// What changed between two sent revisions, for the staff detail and the customer's page alike.
// Pure and browser-safe: it only reads the revisions it is given.

export interface RevisionChange {
  kind: "agregada" | "eliminada" | "cambiada";
  description: string;
  before?: QuoteLine;
  after?: QuoteLine;
}

export interface RevisionComparison {
  revision: number;
  previous: number;
  lines: RevisionChange[];
  leadTime?: { before: number; after: number };
  total: { before: number; after: number };
}

interface ComparableRevision {
  revision: number;
  lines: QuoteLine[];
  leadTimeDays: number;
  totalCentavos: number;
}

/** What changed between two revisions: lines added/removed/changed (matched by description), lead time, total. */
export function compareRevisions(previous: ComparableRevision, next: ComparableRevision): RevisionComparison {
  const key = (line: QuoteLine) => line.description.trim().toLowerCase();
  const before = new Map(previous.lines.map((line) => [key(line), line]));
  const after = new Map(next.lines.map((line) => [key(line), line]));
  const lines: RevisionChange[] = [];
  for (const [name, line] of after) {
    const old = before.get(name);
    if (!old) lines.push({ kind: "agregada", description: line.description, after: line });
    else if (old.quantityMilli !== line.quantityMilli || old.unitPriceCentavos !== line.unitPriceCentavos || old.discountBp !== line.discountBp || old.unit !== line.unit) {
      lines.push({ kind: "cambiada", description: line.description, before: old, after: line });
    }
  }
  for (const [name, line] of before) if (!after.has(name)) lines.push({ kind: "eliminada", description: line.description, before: line });
  return {
    revision: next.revision,
    previous: previous.revision,
    lines,
    leadTime: previous.leadTimeDays !== next.leadTimeDays ? { before: previous.leadTimeDays, after: next.leadTimeDays } : undefined,
    total: { before: previous.totalCentavos, after: next.totalCentavos },
  };
}

/** Each sent revision compared with the one sent before it; drafts are skipped. */
export function compareSentRevisions(revisions: (ComparableRevision & { sentAt: Date | null })[]): RevisionComparison[] {
  const sent = revisions.filter((revision) => revision.sentAt);
  return sent.slice(1).map((revision, index) => compareRevisions(sent[index]!, revision));
}
