import { count, gte, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudes } from "~/db/schema/solicitudes";
import { addDays, mexicoCityDay, mexicoCityDayRange } from "~/lib/time";
import { listColumns, listOrder, type SolicitudListRow } from "./list-query.server";

// The staff dashboard's figures: solicitudes today and this week (Mexico City days), unread ones
// and the latest ten.

export interface DashboardStats {
  today: number;
  week: number;
  unread: number;
  /** Start of the Mexico City week (Monday) the "week" figure counts from, YYYY-MM-DD. */
  weekStart: string;
  latest: SolicitudListRow[];
}

export async function getDashboardStats(now = new Date()): Promise<DashboardStats> {
  const db = getDb();
  const today = mexicoCityDay(now);
  const [year, month, date] = today.split("-").map(Number);
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay(); // 0 = Sunday
  const weekStart = addDays(today, -((weekday + 6) % 7));
  const todayStart = mexicoCityDayRange(today).start!;
  const weekStartInstant = mexicoCityDayRange(weekStart).start!;
  const [[recent], [unread], latest] = await Promise.all([
    db
      .select({
        today: sql<number>`count(*) filter (where ${solicitudes.createdAt} >= ${todayStart.toISOString()}::timestamptz)`.mapWith(Number),
        week: count(),
      })
      .from(solicitudes)
      .where(gte(solicitudes.createdAt, weekStartInstant)),
    db.select({ total: count() }).from(solicitudes).where(isNull(solicitudes.readAt)),
    db
      .select(listColumns)
      .from(solicitudes)
      .orderBy(...listOrder({ sort: "fecha", dir: "desc" }))
      .limit(10),
  ]);
  return { today: recent.today, week: recent.week, unread: unread.total, weekStart, latest };
}
