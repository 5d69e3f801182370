import { SpeiPaymentPanel } from "~/components/ui/spei-payment-panel";
import { quotePaymentAmountText, quotePaymentReferenceText, type SpeiDetails } from "../payment";

// The bank details on an accepted quote's page (the email and the PDF say the same, payment.ts),
// with the deposit and the receipts' address of the business facts.

export function QuotePayment({ payment, total }: { payment: SpeiDetails & { depositPercent: number; receiptEmail: string }; total: string }) {
  return (
    <SpeiPaymentPanel
      heading="Datos para el pago"
      intro={quotePaymentAmountText(total, payment.depositPercent)}
      note={quotePaymentReferenceText(payment.reference, payment.receiptEmail)}
      payment={payment}
    />
  );
}
