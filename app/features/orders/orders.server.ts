import { createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, count, desc, eq, gte, ilike, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { orderEvents, orderItems, orders, type OrderStatus } from "~/db/schema/orders";
import { getAuthSecret } from "~/services/security/secret.server";
import { getSessionUser } from "~/features/accounts/index.server";
import type { RequestMeta } from "~/lib/request-meta";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { startOfMexicoCityDay } from "~/lib/time";
import { getEnv } from "~/lib/env.server";
import { containsPattern } from "~/lib/sql-like";
import { mailOrderStatusChanged, type OrderMailFacts } from "./order-emails.server";
import { formatClabe, getPaymentConfig } from "./payment-config";
import { ORDER_STATUSES, orderStatusLabel } from "./forms";

// Reading orders (the customer's own, the staff's table and detail) and moving them through their
// states. Owners see only their own orders: an order placed while signed in belongs to that
// account; a guest's order is readable only from the browser that placed it (a signed cookie).

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

export interface OrderDetail {
  order: OrderRow;
  items: OrderItemRow[];
  events: OrderEventRow[];
}

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

async function loadDetail(where: SQL): Promise<OrderDetail | null> {
  const db = getDb();
  const [order] = await db.select().from(orders).where(where).limit(1);
  if (!order) return null;
  const [items, events] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.name), asc(orderItems.id)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
  ]);
  return { order, items, events };
}

// ---------------------------------------------------------------------------------------------
// Access for the browser that placed a guest order.

const ORDER_ACCESS_COOKIE = "forja_pedidos";
const ORDER_ACCESS_PATH = "/checkout/confirmacion";
const ORDER_ACCESS_MAX = 10;

function accessSignature(number: string): string {
  return createHmac("sha256", getAuthSecret()).update(`order-access:${number}`).digest("base64url").slice(0, 32);
}

/** Order numbers this browser may open without an account (verified signatures only). */
export function grantedOrderNumbers(request: Request): string[] {
  const raw = (request.headers.get("cookie") ?? "")
    .split(/;\s*/)
    .find((part) => part.startsWith(`${ORDER_ACCESS_COOKIE}=`))
    ?.slice(ORDER_ACCESS_COOKIE.length + 1);
  if (!raw) return [];
  const numbers: string[] = [];
  for (const entry of raw.split(".")) {
    const [number, signature] = entry.split("~");
    if (!number || !signature) continue;
    const expected = Buffer.from(accessSignature(number));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) numbers.push(number);
  }
  return numbers;
}

/** Set-Cookie that lets this browser open the confirmation of `number` (kept for the last 10 orders). */
export function grantOrderAccess(meta: RequestMeta, number: string): Headers {
  const numbers = [number, ...grantedOrderNumbers(meta.request).filter((granted) => granted !== number)].slice(0, ORDER_ACCESS_MAX);
  const value = numbers.map((granted) => `${granted}~${accessSignature(granted)}`).join(".");
  const secure = getEnv().secureCookies ? "; Secure" : "";
  return new Headers({ "Set-Cookie": `${ORDER_ACCESS_COOKIE}=${value}; Max-Age=${60 * 60 * 24 * 30}; Path=${ORDER_ACCESS_PATH}; HttpOnly; SameSite=Lax${secure}` });
}

export interface OrderViewer {
  userId: string | null;
  /** Guest orders this browser placed (from grantedOrderNumbers). */
  grantedNumbers: string[];
}

/** The order if this viewer owns it, otherwise null (the route answers 404, never 403). */
export async function getCustomerOrder(number: string, viewer: OrderViewer): Promise<OrderDetail | null> {
  if (!/^PED-\d{4}-\d{4,}$/.test(number)) return null;
  const detail = await loadDetail(eq(orders.number, number));
  if (!detail) return null;
  const { userId } = detail.order;
  const owns = userId ? viewer.userId === userId : viewer.grantedNumbers.includes(number);
  return owns ? detail : null;
}

export interface OrderConfirmation extends OrderDetail {
  payment: { bank: string; clabe: string; clabeDisplay: string; beneficiary: string } | null;
}

/** /checkout/confirmacion/:number — the order with its payment instructions, for its owner only. */
export async function getOrderConfirmation(meta: RequestMeta, number: string): Promise<OrderConfirmation | null> {
  const user = await getSessionUser(meta);
  const detail = await getCustomerOrder(number, { userId: user?.id ?? null, grantedNumbers: grantedOrderNumbers(meta.request) });
  if (!detail) return null;
  const config = detail.order.paymentMethod === "spei" ? getPaymentConfig() : null;
  return { ...detail, payment: config ? { ...config, clabeDisplay: formatClabe(config.clabe) } : null };
}

export interface CustomerOrderSummary {
  number: string;
  status: OrderStatus;
  createdAt: Date;
  totalCentavos: number;
  delivery: "recoger" | "envio";
  paymentMethod: "spei" | "recoger";
  items: number;
}

/** /cuenta/pedidos: the signed-in customer's orders, newest first. */
export async function listCustomerOrders(userId: string): Promise<CustomerOrderSummary[]> {
  return getDb()
    .select({
      number: orders.number,
      status: orders.status,
      createdAt: orders.createdAt,
      totalCentavos: orders.totalCentavos,
      delivery: orders.delivery,
      paymentMethod: orders.paymentMethod,
      // The outer row's id written out in full: Drizzle renders ${orders.id} as a bare "id", which inside
      // this subquery would mean order_items.id (and every order would count 0 pieces).
      items: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = "orders"."id")`,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(200);
}

// ---------------------------------------------------------------------------------------------
// Staff: the table.

export const ORDERS_PER_PAGE = 30;

const statusValues = ORDER_STATUSES.map((status) => status.value) as [OrderStatus, ...OrderStatus[]];

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value))
  .optional()
  .catch(undefined);

/** /admin/pedidos URL parameters; a bad or stale value is dropped so a shared link always opens. */
export const OrderFiltersSchema = z
  .object({
    pagina: z.coerce.number().int().min(1).max(100_000).catch(1),
    estado: z.enum(statusValues).optional().catch(undefined),
    desde: isoDay,
    hasta: isoDay,
    q: z
      .string()
      .optional()
      .catch(undefined)
      .transform((value) => value?.trim().slice(0, 200) || undefined),
  })
  .transform((raw) => ({ page: raw.pagina, status: raw.estado, from: raw.desde, to: raw.hasta, q: raw.q }));

export type OrderFilters = z.output<typeof OrderFiltersSchema>;

export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  return OrderFiltersSchema.parse(Object.fromEntries(params));
}

function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year!, month! - 1, date! + 1)).toISOString().slice(0, 10);
}

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
  const conditions: (SQL | undefined)[] = [
    filters.status ? eq(orders.status, filters.status) : undefined,
    // Calendar days in Mexico City; "hasta" includes that whole day.
    filters.from ? gte(orders.createdAt, startOfMexicoCityDay(filters.from)) : undefined,
    filters.to ? lt(orders.createdAt, startOfMexicoCityDay(nextDay(filters.to))) : undefined,
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
  return { rows, total, pages: Math.max(1, Math.ceil(total / ORDERS_PER_PAGE)) };
}

// ---------------------------------------------------------------------------------------------
// Staff: one order and its workflow.

type OrderShape = Pick<OrderRow, "status" | "delivery" | "paymentMethod">;

/**
 * pendiente_pago → pagado → en_preparacion → enviado | listo_para_recoger → entregado, and
 * cancelado from pendiente_pago, pagado or en_preparacion. "Enviado" applies only to orders with
 * envío and "listo para recoger" only to pickups; an order paid at pickup may go to preparation
 * before it is paid (the payment happens on delivery).
 */
export function allowedTransitions(order: OrderShape): OrderStatus[] {
  switch (order.status) {
    case "pendiente_pago":
      return order.paymentMethod === "recoger" ? ["pagado", "en_preparacion", "cancelado"] : ["pagado", "cancelado"];
    case "pagado":
      return ["en_preparacion", "cancelado"];
    case "en_preparacion":
      return [order.delivery === "envio" ? "enviado" : "listo_para_recoger", "cancelado"];
    case "enviado":
    case "listo_para_recoger":
      return ["entregado"];
    default:
      return [];
  }
}

export function transitionRefusal(order: OrderShape, to: OrderStatus): string | null {
  const allowed = allowedTransitions(order);
  if (allowed.includes(to)) return null;
  const from = orderStatusLabel(order.status);
  if (order.status === to) return `El pedido ya está «${from}».`;
  if (allowed.length === 0) return `El pedido está «${from}» y ya no admite cambios de estado.`;
  if (order.status === "en_preparacion" && to === "enviado" && order.delivery === "recoger") return "Este pedido se recoge en planta: márquelo como «Listo para recoger», no como «Enviado».";
  if (order.status === "en_preparacion" && to === "listo_para_recoger" && order.delivery === "envio") return "Este pedido se envía a domicilio: márquelo como «Enviado», no como «Listo para recoger».";
  if (to === "cancelado") return `Un pedido «${from}» ya no se puede cancelar.`;
  return `Un pedido «${from}» no puede pasar a «${orderStatusLabel(to)}». Puede pasar a: ${allowed.map((status) => `«${orderStatusLabel(status)}»`).join(", ")}.`;
}

export interface StaffOrderDetail extends OrderDetail {
  allowed: { value: OrderStatus; label: string }[];
}

export async function getOrderDetail(id: string): Promise<StaffOrderDetail | null> {
  if (!isUuid(id)) return null;
  const detail = await loadDetail(eq(orders.id, id));
  if (!detail) return null;
  return { ...detail, allowed: allowedTransitions(detail.order).map((value) => ({ value, label: orderStatusLabel(value) })) };
}

export const OrderTransitionSchema = z.object({
  status: z.enum(statusValues, { error: "Elija un estado de la lista." }),
  note: z
    .string()
    .trim()
    .max(1_000, "Máximo 1,000 caracteres.")
    .optional()
    .transform((value) => value || null),
});

export interface StaffActor {
  id: string;
  name: string;
}

export type TransitionResult = { ok: true; status: OrderStatus; message: string } | { ok: false; status: number; message: string };

/**
 * Moves an order to `to` if the workflow allows it: records who and when, emails the customer and,
 * on cancellation, returns the stock of every line — all in one transaction. The status update is
 * conditional on the status read, so two staff members clicking at once cannot cancel twice.
 */
export async function changeOrderStatus(input: { orderId: string; to: OrderStatus; actor: StaffActor; note?: string | null; now?: Date }): Promise<TransitionResult> {
  if (!isUuid(input.orderId)) return { ok: false, status: 404, message: "No encontramos ese pedido." };
  const now = input.now ?? new Date();
  const result = await getDb().transaction(async (tx): Promise<TransitionResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: "No encontramos ese pedido." };
    const refusal = transitionRefusal(order, input.to);
    if (refusal) return { ok: false, status: 409, message: refusal };
    const [updated] = await tx
      .update(orders)
      .set({ status: input.to, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
      .returning({ id: orders.id });
    if (!updated) return { ok: false, status: 409, message: "Alguien más cambió este pedido hace un momento. Recargue la página." };

    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.productId));
    if (input.to === "cancelado") {
      // Same lock order as checkout (by product id). A product deleted since keeps nothing to return.
      for (const item of items) {
        if (!item.productId) continue;
        await tx
          .update(products)
          .set({ stock: sql`${products.stock} + ${item.quantity}`, updatedAt: now })
          .where(eq(products.id, item.productId));
      }
    }
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: input.to,
      note: input.note ?? null,
      actorId: input.actor.id,
      actorName: input.actor.name,
      createdAt: now,
    });
    await mailOrderStatusChanged(tx, toMailFacts(order, items), input.to, input.note ?? null);
    const returned = input.to === "cancelado" && items.some((item) => item.productId) ? " y el inventario regresó al catálogo" : "";
    return { ok: true, status: input.to, message: `El pedido ${order.number} pasó a «${orderStatusLabel(input.to)}»${returned}. Avisamos al cliente por correo.` };
  });
  if (result.ok) nudgeMailWorker();
  return result;
}

function toMailFacts(order: OrderRow, items: OrderItemRow[]): OrderMailFacts {
  return {
    id: order.id,
    number: order.number,
    userId: order.userId,
    name: order.name,
    email: order.email,
    phone: order.phone,
    company: order.company,
    delivery: order.delivery,
    address: order.address,
    invoice: order.invoice,
    paymentMethod: order.paymentMethod,
    paymentReference: order.paymentReference,
    subtotalCentavos: order.subtotalCentavos,
    ivaCentavos: order.ivaCentavos,
    totalCentavos: order.totalCentavos,
    lines: items,
  };
}
