import { sql } from "drizzle-orm";
import type { DbTransaction } from "~/db/client.server";
import { counters } from "~/db/schema/numbering";
import { formatRecordNumber } from "~/lib/format";
import { mexicoCityYear } from "~/lib/time";

/**
 * The next number of a yearly series (SOL-2026-0001). Call it inside the transaction that inserts
 * the record: the counter row stays locked until commit, so numbers are unique and, because a
 * rollback gives the number back, gapless.
 */
export async function nextRecordNumber(tx: DbTransaction, prefix: "SOL" | "COT" | "PED", now = new Date()): Promise<string> {
  const year = mexicoCityYear(now);
  const [row] = await tx
    .insert(counters)
    .values({ name: prefix, year, value: 1 })
    .onConflictDoUpdate({ target: [counters.name, counters.year], set: { value: sql`${counters.value} + 1` } })
    .returning({ value: counters.value });
  return formatRecordNumber(prefix, year, row!.value);
}
