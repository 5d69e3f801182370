import { quotePaymentAmountText, quotePaymentReferenceText, type SpeiDetails } from "../payment";

// The bank details on an accepted quote's page (the email and the PDF say the same, payment.ts).

export function QuotePayment({ payment, total }: { payment: SpeiDetails; total: string }) {
  return (
    <section aria-labelledby="pago" className="rounded-lg border-2 border-forja-600 bg-white p-6" data-testid="spei-instructions">
      <h2 id="pago" className="text-lg font-semibold text-acero-900">
        Datos para el pago
      </h2>
      <p className="mt-2 text-acero-800">{quotePaymentAmountText(total)}</p>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-acero-600">Banco</dt>
          <dd className="font-semibold text-acero-900">{payment.bank}</dd>
        </div>
        <div>
          <dt className="text-sm text-acero-600">CLABE</dt>
          <dd className="font-mono text-lg font-semibold text-acero-900" data-clabe={payment.clabe}>
            {payment.clabeDisplay}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-acero-600">Beneficiario</dt>
          <dd className="font-semibold text-acero-900">{payment.beneficiary}</dd>
        </div>
        <div>
          <dt className="text-sm text-acero-600">Referencia (escríbala en el concepto)</dt>
          <dd className="font-mono text-lg font-semibold text-forja-700" data-testid="payment-reference">
            {payment.reference}
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-acero-700">{quotePaymentReferenceText(payment.reference)}</p>
    </section>
  );
}
