import { SpeiPaymentPanel } from "~/components/ui/spei-payment-panel";
import { quotePaymentAmountText, quotePaymentReferenceText, type SpeiDetails } from "../payment";

// The bank details on an accepted quote's page (the email and the PDF say the same, payment.ts).

export function QuotePayment({ payment, total }: { payment: SpeiDetails; total: string }) {
  return <SpeiPaymentPanel heading="Datos para el pago" intro={quotePaymentAmountText(total)} note={quotePaymentReferenceText(payment.reference)} payment={payment} />;
}
