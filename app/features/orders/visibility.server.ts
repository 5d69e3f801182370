import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { orders } from "~/db/schema/orders";

// Who sees which order, written once: /cuenta/pedidos, the order and confirmation pages
// (customer-orders.server.ts) and the record API's `pedidos` collection filter through these.

/** The orders of a customer's account: placed while signed in, or joined when they confirmed the email. */
export function orderVisibleToCustomer(userId: string): SQL {
  return eq(orders.userId, userId);
}

/** Who reads an order on the customer's pages: the account, or the browser that placed a guest order. */
export interface OrderViewer {
  userId: string | null;
  /** Guest orders this browser placed (from grantedOrderNumbers). */
  grantedNumbers: string[];
}

/**
 * The orders this viewer sees: their account's, and the guest orders (no account yet) this
 * browser placed. Once an order belongs to an account, the placing browser's cookie alone no
 * longer opens it. Nothing at all for a viewer with neither.
 */
export function orderVisibleToViewer(viewer: OrderViewer): SQL {
  const own = viewer.userId ? orderVisibleToCustomer(viewer.userId) : undefined;
  const placedHere = viewer.grantedNumbers.length > 0 ? and(isNull(orders.userId), inArray(orders.number, viewer.grantedNumbers)) : undefined;
  return or(own, placedHere) ?? sql`false`;
}
