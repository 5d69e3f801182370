import { formatMoney } from "~/lib/format";
import { formatAddress, siteConfig } from "~/services/site-config/site-config";

export interface SpeiDetails {
  bank: string;
  clabe: string;
  clabeDisplay: string;
  beneficiary: string;
}

/** How to pay: the SPEI data with the order's reference, or paying at the plant. */
export function PaymentInstructions({
  method,
  payment,
  reference,
  totalCentavos,
  number,
}: {
  method: "spei" | "recoger";
  payment: SpeiDetails | null;
  reference: string;
  totalCentavos: number;
  number: string;
}) {
  if (method === "recoger" || !payment) {
    return (
      <section aria-labelledby="pago" className="rounded-lg border border-acero-200 bg-white p-6">
        <h2 id="pago" className="text-lg font-semibold text-acero-900">
          Pago al recoger en planta
        </h2>
        <p className="mt-2 text-acero-800">
          Pague {formatMoney(totalCentavos)} con IVA al recoger su pedido en {formatAddress()}, {siteConfig.hours.label.toLowerCase()}. Le
          avisaremos por correo cuando esté listo; mencione el pedido <strong>{number}</strong>.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="pago" className="rounded-lg border-2 border-forja-600 bg-white p-6" data-testid="spei-instructions">
      <h2 id="pago" className="text-lg font-semibold text-acero-900">
        Pague por transferencia SPEI
      </h2>
      <p className="mt-2 text-acero-800">
        Transfiera <strong>{formatMoney(totalCentavos)}</strong> desde la banca en línea de su empresa con estos datos. Preparamos su pedido en cuanto confirmemos el pago.
      </p>
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
            {reference}
          </dd>
        </div>
      </dl>
    </section>
  );
}
