import { SpeiPaymentPanel } from "~/components/ui/spei-payment-panel";
import { formatMoney } from "~/lib/format";
import type { SpeiDetails } from "~/services/site-config/payment-account";

/** How to pay: the SPEI data with the order's reference, or paying at the plant (its address and hours from the business facts; `hours` as it reads mid-sentence). */
export function PaymentInstructions({
  method,
  payment,
  totalCentavos,
  number,
  plant,
}: {
  method: "spei" | "recoger";
  plant: { address: string; hours: string };
  payment: SpeiDetails | null;
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
          Pague {formatMoney(totalCentavos)} con IVA al recoger su pedido en {plant.address}, {plant.hours}. Le
          avisaremos por correo cuando esté listo; mencione el pedido <strong>{number}</strong>.
        </p>
      </section>
    );
  }
  return (
    <SpeiPaymentPanel
      heading="Pague por transferencia SPEI"
      intro={
        <>
          Transfiera <strong>{formatMoney(totalCentavos)}</strong> desde la banca en línea de su empresa con estos datos. Preparamos su pedido en cuanto confirmemos el pago.
        </>
      }
      payment={payment}
    />
  );
}
