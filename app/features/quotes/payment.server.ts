import { getSpeiDetails } from "~/services/site-config/payment-account";
import { showsPayment, type SpeiDetails } from "./payment";
import type { QuoteStatus } from "./states";

/** The SPEI details of an accepted quote (reference: its number), or null while there is nothing to pay. */
export function quotePaymentDetails(quote: { number: string; status: QuoteStatus }, draft = false): SpeiDetails | null {
  return showsPayment(quote.status, draft) ? getSpeiDetails(quote.number) : null;
}
