import { linkRowsByEmail } from "~/db/link-by-email.server";
import { orders } from "~/db/schema/orders";

/**
 * Guest orders join the account that confirms the same email, so the customer finds them in
 * /cuenta/pedidos. From then on they are that account's: the placing browser's cookie alone no
 * longer opens them (see getCustomerOrder).
 */
export function linkOrdersToUser(userId: string, email: string): Promise<number> {
  return linkRowsByEmail(orders, { owner: orders.userId, email: orders.email }, userId, email);
}
