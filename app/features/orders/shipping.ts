import { formatMoney } from "~/lib/format";

// What a home-delivery order says about shipping, in the same words on the confirmation page and
// in the customer's emails. Shipping is quoted after the order is placed (the cart and /checkout
// say so): the customer transfers the order's total now and pays the shipping apart, once we have
// sent its cost and the carrier by email. Pickup orders never show these sentences.

/** The short form, beside the delivery address: the total leaves shipping out. */
export const SHIPPING_NOT_INCLUDED = "El envío no está incluido en el total: le enviaremos por correo su costo y la paquetería.";

/** The long form, with the payment instructions: what to transfer now and when shipping is paid. */
export function shippingPaymentText(totalCentavos: number): string {
  return (
    `El total de ${formatMoney(totalCentavos)} no incluye el envío. Le enviaremos por correo el costo del envío y la paquetería. ` +
    "Transfiera ahora solo el total del pedido; el envío se paga aparte, una vez que le confirmemos su costo."
  );
}
