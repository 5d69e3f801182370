import { z } from "~/lib/zod";
import { isoDayField, pageField, searchField, optionalEnumField } from "~/lib/list-fields";
import { ORDER_STATUSES, type OrderStatus } from "./forms";

// /admin/pedidos URL parameters, read with the shared list-params fields: a bad or stale value is
// dropped so a shared link always opens. Browser-safe (the page uses ORDERS_PER_PAGE too).

export const ORDERS_PER_PAGE = 30;

const statusValues: readonly OrderStatus[] = ORDER_STATUSES.map((status) => status.value);

export const OrderFiltersSchema = z
  .object({
    pagina: pageField(),
    estado: optionalEnumField(statusValues),
    desde: isoDayField,
    hasta: isoDayField,
    q: searchField(),
  })
  .transform((raw) => ({ page: raw.pagina, status: raw.estado, from: raw.desde, to: raw.hasta, q: raw.q }));

export type OrderFilters = z.output<typeof OrderFiltersSchema>;

export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  return OrderFiltersSchema.parse(Object.fromEntries(params));
}
