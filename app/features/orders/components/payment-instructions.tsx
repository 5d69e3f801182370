import { SpeiPaymentPanel } from "~/components/ui/spei-payment-panel";
import { formatMoney } from "~/lib/format";
import type { SpeiDetails } from "~/services/site-config/payment-account";
import { shippingPaymentText } from "../shipping";

/**
 * How to pay: the SPEI data with the order's reference, or paying at the plant (its address and hours
 * from the business facts; `hours` as it reads mid-sentence). A home delivery also says that the
 * total leaves shipping out, that its cost and carrier come by email and that it is paid apart.
 */
export function PaymentInstructions({
  method,
  delivery,
  payment,
  totalCentavos,
  number,
  plant,
}: {
  method: "spei" | "recoger";
  delivery: "recoger" | "envio";
  plant: { address: string; hours: string };
  payment: SpeiDetails | null;
  totalCentavos: number;
  number: string;
}) {
  const shipping =
    delivery === "envio" ? (
      <span className="mt-3 block rounded-md border-l-4 border-forja-600 bg-acero-50 px-3 py-2 text-acero-900" data-testid="shipping-payment-note">
        <strong className="block">El envío se paga aparte</strong>
        {shippingPaymentText(totalCentavos)}
      </span>
    ) : null;
  if (method === "recoger" || !payment) {
    return (
      <section aria-labelledby="pago" className="rounded-lg border border-acero-200 bg-white p-6">
        <h2 id="pago" className="text-lg font-semibold text-acero-900">
          Pago al recoger en planta
        </h2>
        <p className="mt-2 text-acero-800">
          Pague {formatMoney(totalCentavos)} con IVA al recoger su pedido en {plant.address}, {plant.hours}. Le
          avisaremos por correo cuando esté listo; mencione el pedido <strong>{number}</strong>.
          {shipping}
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
          {shipping}
        </>
      }
      payment={payment}
    />
  );
}
