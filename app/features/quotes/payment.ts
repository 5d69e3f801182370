import type { SpeiDetails } from "~/services/site-config/payment-account";
import type { QuoteStatus } from "./states";

// How an accepted quote is paid, in the words its page, its acceptance email and its PDF share.
// The account, the deposit and the address for receipts are the business facts of `ajustes` (the
// same ones orders use, docs/decisions/0047); the reference is the quote number, as staff search
// it in the panel (docs/decisions/0033).

export type { SpeiDetails };

/** Only an accepted quote carries the bank details: before that there is nothing to pay. */
export const showsPayment = (status: QuoteStatus, draft = false) => status === "aceptada" && !draft;

/** What to transfer: the total or, for series, the deposit the payment terms set. */
export function quotePaymentAmountText(total: string, depositPercent: number): string {
  return `Transfiera por SPEI lo que indican las condiciones de pago: el total de ${total} con IVA o, en series de producción, moldes y ensamble por contrato, el anticipo del ${depositPercent} %.`;
}

/** Where the reference goes and where the receipt is sent. */
export function quotePaymentReferenceText(reference: string, email: string): string {
  return `Escriba la referencia ${reference} en el concepto de la transferencia y envíe el comprobante a ${email}.`;
}
