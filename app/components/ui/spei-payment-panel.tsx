import type { ReactNode } from "react";
import type { SpeiDetails } from "~/services/site-config/payment-account";

// How to pay by SPEI, as the customer copies it into their bank: bank, CLABE, beneficiary and the
// reference for the concept. One panel for an order's confirmation and an accepted quote; each
// says its own amount (docs/decisions/0033).

export function SpeiPaymentPanel({ heading, intro, note, payment }: { heading: string; intro: ReactNode; note?: ReactNode; payment: SpeiDetails }) {
  return (
    <section aria-labelledby="pago" className="rounded-lg border-2 border-forja-600 bg-white p-6" data-testid="spei-instructions">
      <h2 id="pago" className="text-lg font-semibold text-acero-900">
        {heading}
      </h2>
      <p className="mt-2 text-acero-800">{intro}</p>
      <dl className="mt-4 grid gap-3 wrap-anywhere sm:grid-cols-2">
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
      {note ? <p className="mt-4 text-sm text-acero-700">{note}</p> : null}
    </section>
  );
}
