import { bigint, boolean, index, integer, json, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Running the site (issue 17 §2, docs/decisions/0051): the request and error log read by /api/logs,
// and the last run of each scheduled job (/api/crons, /admin/sistema).

/** PocketBase's log: a request or an error line, with its details in `data`. Kept LOGS_MAX_DAYS days. */
export const logs = pgTable(
  "logs",
  {
    // A sequence and plain json, not a random uuid and jsonb: a batch of a few hundred rows costs a
    // fraction to insert on PGlite (measured; docs/decisions/0051), and ids follow insertion order.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** PocketBase's levels (Go's slog): -4 debug, 0 info, 4 warning, 8 error. */
    level: integer("level").notNull().default(0),
    message: text("message").notNull(),
    data: json("data").$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index("logs_created_idx").on(table.createdAt)],
);

/**
 * One row per scheduled job: the last slot a process claimed (so each slot runs once among several
 * processes) and how its last run went.
 */
export const cronRuns = pgTable("cron_runs", {
  jobId: text("job_id").primaryKey(),
  /** The scheduled minute last claimed; a run started by hand leaves it as it was. */
  lastSlot: timestamp("last_slot", { withTimezone: true }),
  startedAt: timestamp("started_at", { withTimezone: true }),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** null while running (or when it never finished: the process ended during the run). */
  ok: boolean("ok"),
  error: text("error"),
  /** "programada" (its slot), "manual" (POST /api/crons/{id}) or "inicio" (at start-up). */
  trigger: text("trigger"),
});
