import type { SiteFacts } from "~/services/site-config/business-facts";
import { speiDetails } from "~/services/site-config/payment-account";
import { showsPayment, type SpeiDetails } from "./payment";
import type { QuoteStatus } from "./states";

/** The SPEI details of an accepted quote (reference: its number), or null while there is nothing to pay. */
export function quotePaymentDetails(quote: { number: string; status: QuoteStatus }, facts: Pick<SiteFacts, "payment">, draft = false): SpeiDetails | null {
  return showsPayment(quote.status, draft) ? speiDetails(facts.payment, quote.number) : null;
}
