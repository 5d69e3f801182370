import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatMoney } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { OrderLines, type OrderLineView } from "./order-lines";
import { PaymentInstructions } from "./payment-instructions";

// The order's lines and payment instructions as the confirmation page shows them: on a phone the
// lines keep every figure in two columns (no sideways scrolling), with the same money as the wide
// table; a home delivery says the total leaves shipping out and shipping is paid apart.

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

// $1,112.07 net at 16 % → $1,290.00 with IVA; 3 pieces → $3,870.00 ($3,336.21 net + $533.79 IVA).
const LINE: OrderLineView = { id: "l1", sku: "BRI-100", name: "Brida de acero", unit: "pieza", quantity: 3, unitPriceCentavos: 111_207, ivaBp: 1600, netCentavos: 333_621, ivaCentavos: 53_379 };

describe("OrderLines", () => {
  it("keeps one table: the five columns when the box is wide, product and amount with the details stacked when it is narrow", () => {
    const html = renderToStaticMarkup(<OrderLines items={[LINE]} caption="Productos del pedido PED-2026-0001" />);
    expect(priceWithIva(LINE.unitPriceCentavos, LINE.ivaBp)).toBe(129_000);
    expect(LINE.quantity * 129_000).toBe(LINE.netCentavos + LINE.ivaCentavos);
    expect(html.match(/<table/g)).toHaveLength(1);
    // The box is the container the columns are measured against.
    expect(html).toMatch(/role="region" aria-label="Productos del pedido PED-2026-0001"[^>]*class="[^"]*@container/);
    // Product and amount are always there; the three middle columns only from the container's 2xl width.
    expect(html.match(/<th scope="col" class="px-4/g)).toHaveLength(2);
    expect(html.match(/<th scope="col" class="hidden [^"]*@2xl:table-cell"/g)).toHaveLength(3);
    // Stacked under the name (hidden once the columns show): «3 piezas × $1,290.00» and the IVA.
    const detail = /<span class="([^"]*)" data-testid="order-line-detail">([^<]*)<\/span>/.exec(html);
    expect(detail?.[1]).toContain("@2xl:hidden");
    expect(detail?.[2]).toBe(`3 piezas × ${formatMoney(129_000)}`);
    expect(text(html)).toContain(`IVA incluido: ${formatMoney(53_379)} (16 %)`);
    expect(text(html)).toContain("$1,290.00");
    // The line's amount, exactly as before: net + IVA = quantity × the unit price with IVA.
    expect(/data-testid="order-line-total">([^<]*)</.exec(html)?.[1]).toBe("$3,870.00");
  });
});

const PAYMENT = { bank: "BBVA México", clabe: "012180001234567899", beneficiary: "Forja Diseño y Manufactura, S.A. de C.V.", clabeDisplay: "012 180 00123456789 9", reference: "PED20260001" };
const PLANT = { address: "Av. de la Industria 120, Querétaro", hours: "de lunes a viernes de 8:00 a 18:00" };

describe("PaymentInstructions", () => {
  it("for a home delivery says the total leaves shipping out, that its cost and carrier come by email and that it is paid apart", () => {
    const html = text(renderToStaticMarkup(<PaymentInstructions method="spei" delivery="envio" payment={PAYMENT} totalCentavos={387_000} number="PED-2026-0001" plant={PLANT} />));
    expect(html).toContain("Transfiera $3,870.00 desde la banca en línea de su empresa");
    expect(html).toContain("El envío se paga aparte");
    expect(html).toContain("El total de $3,870.00 no incluye el envío. Le enviaremos por correo el costo del envío y la paquetería.");
    expect(html).toContain("Transfiera ahora solo el total del pedido; el envío se paga aparte, una vez que le confirmemos su costo.");
  });

  it("says nothing about shipping when the order is picked up, whether paid by SPEI or at the plant", () => {
    for (const method of ["spei", "recoger"] as const) {
      const html = renderToStaticMarkup(<PaymentInstructions method={method} delivery="recoger" payment={PAYMENT} totalCentavos={387_000} number="PED-2026-0001" plant={PLANT} />);
      expect(html).not.toContain("shipping-payment-note");
      expect(html).not.toMatch(/env[ií]o/i);
    }
  });
});
