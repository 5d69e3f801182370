import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import { solicitudes } from "~/db/schema/solicitudes";
import { containsPattern } from "~/lib/sql-like";
import { mexicoCityDayRange } from "~/lib/time";
import type { SolicitudFilters } from "./filters";
import { SOLICITUD_STATUS_ORDER, type SolicitudStatus, type SolicitudType } from "./states";

// The SQL pieces the staff list, the dashboard and the CSV export share, so the three read the
// same rows in the same order.

// Constants of this module (no user input), so inlining them is safe.
const statusRank = sql<number>`array_position(${sql.raw(`array[${SOLICITUD_STATUS_ORDER.map((s) => `'${s}'`).join(",")}]::text[]`)}, ${solicitudes.status})`;

// Spelled out: Drizzle leaves columns unqualified in one-table queries, and a bare "id" in the
// subquery would mean the file's id.
export const fileCount = sql<number>`(select count(*)::int from "solicitud_files" as f where f."solicitud_id" = "solicitudes"."id")`.mapWith(Number);

export function filterWhere(filters: SolicitudFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filters.type) conditions.push(eq(solicitudes.type, filters.type));
  if (filters.status) conditions.push(eq(solicitudes.status, filters.status));
  if (filters.industry) conditions.push(eq(solicitudes.industry, filters.industry));
  // Both ends are whole Mexico City days: "hasta" includes the day it names.
  const range = mexicoCityDayRange(filters.from, filters.to);
  if (range.start) conditions.push(gte(solicitudes.createdAt, range.start));
  if (range.end) conditions.push(lt(solicitudes.createdAt, range.end));
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(
      or(ilike(solicitudes.number, pattern), ilike(solicitudes.name, pattern), ilike(solicitudes.company, pattern), ilike(solicitudes.email, pattern)),
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Newest first is `created_at DESC NULLS LAST, id ASC` and oldest first its exact reverse: the
 * shape of solicitudes_created_at_idx, so a page is read straight from the index instead of
 * sorting the whole table. The id makes the order total (stable pages, exact keyset).
 */
export function dateOrder(dir: "asc" | "desc"): SQL[] {
  return dir === "desc"
    ? [sql`${solicitudes.createdAt} desc nulls last`, sql`${solicitudes.id} asc`]
    : [sql`${solicitudes.createdAt} asc nulls first`, sql`${solicitudes.id} desc`];
}

/** By status in workflow order (nuevo first, or last when descending), newest first within one. */
export function listOrder(filters: Pick<SolicitudFilters, "sort" | "dir">): SQL[] {
  if (filters.sort === "estado") return [filters.dir === "asc" ? asc(statusRank) : desc(statusRank), ...dateOrder("desc")];
  return dateOrder(filters.dir);
}

export const listColumns = {
  id: solicitudes.id,
  number: solicitudes.number,
  type: solicitudes.type,
  createdAt: solicitudes.createdAt,
  name: solicitudes.name,
  company: solicitudes.company,
  email: solicitudes.email,
  industry: solicitudes.industry,
  status: solicitudes.status,
  unread: sql<boolean>`(${solicitudes.readAt} is null)`.mapWith(Boolean),
  fileCount,
};

export interface SolicitudListRow {
  id: string;
  number: string;
  type: SolicitudType;
  createdAt: Date;
  name: string;
  company: string | null;
  email: string;
  industry: string | null;
  status: SolicitudStatus;
  unread: boolean;
  fileCount: number;
}
