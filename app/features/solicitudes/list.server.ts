import { count } from "drizzle-orm";
import { createLiveCache } from "~/db/change-feed.server";
import { getDb } from "~/db/client.server";
import { solicitudes } from "~/db/schema/solicitudes";
import type { SolicitudFilters } from "./filters";
import { filterWhere, listColumns, listOrder, type SolicitudListRow } from "./list-query.server";

// The staff list of /admin/formularios: one page of the filtered view, and its total.

export type { SolicitudListRow } from "./list-query.server";

export interface SolicitudList {
  rows: SolicitudListRow[];
  /** null when the filters asked to skip counting (sinTotal=1). */
  total: number | null;
  hasNext: boolean;
}

/**
 * Exact totals per filter, kept until the solicitudes table changes (any insert, status change or
 * read marker, in any process): the total costs a count over every matching row, the page does not.
 */
const totals = createLiveCache<number>("solicitudes", 200);

function countMatching(filters: SolicitudFilters): Promise<number> {
  const { type, status, industry, from, to, q } = filters;
  return totals.get(JSON.stringify([type, status, industry, from, to, q]), () =>
    getDb()
      .select({ total: count() })
      .from(solicitudes)
      .where(filterWhere(filters))
      .then(([row]) => row.total),
  );
}

export async function listSolicitudes(filters: SolicitudFilters): Promise<SolicitudList> {
  // One row more than the page tells whether a next page exists without counting anything.
  const [fetched, total] = await Promise.all([
    getDb()
      .select(listColumns)
      .from(solicitudes)
      .where(filterWhere(filters))
      .orderBy(...listOrder(filters))
      .limit(filters.perPage + 1)
      .offset((filters.page - 1) * filters.perPage),
    filters.skipTotal ? Promise.resolve(null) : countMatching(filters),
  ]);
  return { rows: fetched.slice(0, filters.perPage), total, hasNext: fetched.length > filters.perPage };
}
