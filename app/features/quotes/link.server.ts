import { linkRowsByEmail } from "~/db/link-by-email.server";
import { quotes } from "~/db/schema/quotes";

/** Quotes issued to an email join the account that confirms that email. */
export function linkQuotesToUser(userId: string, email: string): Promise<number> {
  return linkRowsByEmail(quotes, { owner: quotes.customerUserId, email: quotes.customerEmail }, userId, email);
}
