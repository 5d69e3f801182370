import { and, count, desc, eq, gte, ilike, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, type OrderStatus } from "~/db/schema/orders";
import { pageCount } from "~/lib/list-params";
import { containsPattern } from "~/lib/sql-like";
import { mexicoCityDayRange } from "~/lib/time";
import { ORDERS_PER_PAGE, type OrderFilters } from "./filters";

// /admin/pedidos: the staff's table of orders, newest first, filtered and paged.

export interface StaffOrderRow {
  id: string;
  number: string;
  createdAt: Date;
  name: string;
  email: string;
  company: string | null;
  rfc: string | null;
  status: OrderStatus;
  delivery: "recoger" | "envio";
  paymentMethod: "spei" | "recoger";
  totalCentavos: number;
}

export async function listOrders(filters: OrderFilters): Promise<{ rows: StaffOrderRow[]; total: number; pages: number }> {
  const rfc = sql<string | null>`${orders.invoice} ->> 'rfc'`;
  // Calendar days in Mexico City; "hasta" includes that whole day.
  const { start, end } = mexicoCityDayRange(filters.from, filters.to);
  const conditions: (SQL | undefined)[] = [
    filters.status ? eq(orders.status, filters.status) : undefined,
    start ? gte(orders.createdAt, start) : undefined,
    end ? lt(orders.createdAt, end) : undefined,
  ];
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(
      or(
        ilike(orders.number, pattern),
        ilike(orders.paymentReference, pattern),
        ilike(orders.name, pattern),
        ilike(orders.email, pattern),
        ilike(orders.company, pattern),
        and(isNotNull(orders.invoice), ilike(rfc, pattern)),
      ),
    );
  }
  const where = and(...conditions);
  const db = getDb();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: orders.id,
        number: orders.number,
        createdAt: orders.createdAt,
        name: orders.name,
        email: orders.email,
        company: orders.company,
        rfc,
        status: orders.status,
        delivery: orders.delivery,
        paymentMethod: orders.paymentMethod,
        totalCentavos: orders.totalCentavos,
      })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.number))
      .limit(ORDERS_PER_PAGE)
      .offset((filters.page - 1) * ORDERS_PER_PAGE),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  return { rows, total, pages: pageCount(total, ORDERS_PER_PAGE) };
}
