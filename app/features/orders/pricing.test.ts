import { describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "~/features/catalogue/demo-products.server";
import { netForGross } from "~/features/catalogue/seed.server";
import { IVA_BP, priceWithIva } from "~/lib/money";
import { priceLine, priceLines } from "./pricing";

// The IVA-inclusive unit price is the contract (docs/decisions/0028): a line costs quantity × the
// price the catalogue shows; the IVA inside is derived per line (net = total ÷ 1.16 rounded half up
// to the centavo, IVA = total − net), and totals are the sums of the lines.

describe("priceLine", () => {
  it("prices one unit like the public price with IVA", () => {
    expect(priceLine({ quantity: 1, unitPriceCentavos: 10_000, ivaBp: 1600 })).toEqual({
      unitPriceWithIvaCentavos: 11_600,
      netCentavos: 10_000,
      ivaCentavos: 1_600,
      totalCentavos: 11_600,
    });
  });

  it("charges quantity × the shown price: 10 pieces at $89.00 are $890.00, not $889.95", () => {
    const net = netForGross(8_900); // $76.72 net, shown as $89.00 with IVA
    const line = priceLine({ quantity: 10, unitPriceCentavos: net, ivaBp: 1600 });
    expect(line.unitPriceWithIvaCentavos).toBe(8_900);
    expect(line.totalCentavos).toBe(89_000);
    // $890.00 ÷ 1.16 = 767.2413… → $767.24 net; IVA $122.76.
    expect(line).toMatchObject({ netCentavos: 76_724, ivaCentavos: 12_276 });
  });

  it("rounds the derived net half up and leaves the IVA as the rest", () => {
    // 3 × $1.16 = $3.48 → net exactly $3.00, IVA $0.48.
    expect(priceLine({ quantity: 3, unitPriceCentavos: 100, ivaBp: 1600 })).toMatchObject({ totalCentavos: 348, netCentavos: 300, ivaCentavos: 48 });
    // 1 × $0.05 (net 4 ¢ + IVA 0.64 ¢ → 5 ¢): 5 ÷ 1.16 = 4.31 → 4 ¢ net, 1 ¢ IVA.
    expect(priceLine({ quantity: 1, unitPriceCentavos: 4, ivaBp: 1600 })).toMatchObject({ totalCentavos: 5, netCentavos: 4, ivaCentavos: 1 });
    // 7 × $0.29: total 203 ¢; 203 ÷ 1.16 = 175.0 → 175 net, 28 IVA.
    expect(priceLine({ quantity: 7, unitPriceCentavos: 25, ivaBp: 1600 })).toMatchObject({ unitPriceWithIvaCentavos: 29, totalCentavos: 203, netCentavos: 175, ivaCentavos: 28 });
  });

  it("takes each product's own IVA rate (0 %, 8 % border zone, 16 %)", () => {
    expect(priceLine({ quantity: 2, unitPriceCentavos: 50_000, ivaBp: 0 })).toMatchObject({ netCentavos: 100_000, ivaCentavos: 0, totalCentavos: 100_000 });
    expect(priceLine({ quantity: 2, unitPriceCentavos: 50_000, ivaBp: 800 })).toMatchObject({ netCentavos: 100_000, ivaCentavos: 8_000, totalCentavos: 108_000 });
    // 8 %: $0.44 net → $0.48 shown; 3 × $0.48 = $1.44 → net 133.33 → $1.33, IVA $0.11.
    expect(priceLine({ quantity: 3, unitPriceCentavos: 44, ivaBp: 800 })).toMatchObject({ unitPriceWithIvaCentavos: 48, totalCentavos: 144, netCentavos: 133, ivaCentavos: 11 });
  });
});

/** What every line must satisfy, whatever the price and quantity. */
function expectLineAddsUp(quantity: number, net: number, ivaBp: number) {
  const line = priceLine({ quantity, unitPriceCentavos: net, ivaBp });
  const shown = priceWithIva(net, ivaBp);
  if (line.unitPriceWithIvaCentavos !== shown) throw new Error(`${net}: shown ${shown}, priced ${line.unitPriceWithIvaCentavos}`);
  if (line.totalCentavos !== quantity * shown) throw new Error(`${quantity} × ${shown} = ${quantity * shown}, charged ${line.totalCentavos}`);
  if (line.netCentavos + line.ivaCentavos !== line.totalCentavos) throw new Error(`${quantity} × ${shown}: net + IVA ≠ total`);
  // The net is the total without IVA to the nearest centavo…
  const exactNet = (line.totalCentavos * 10_000) / (10_000 + ivaBp);
  if (Math.abs(line.netCentavos - exactNet) > 0.5 + 1e-9) throw new Error(`${quantity} × ${shown}: net ${line.netCentavos} vs ${exactNet}`);
  // …so the IVA is within one centavo of the rate applied to that net (what a CFDI reader checks).
  if (Math.abs(line.ivaCentavos - (line.netCentavos * ivaBp) / 10_000) > 1) throw new Error(`${quantity} × ${shown}: IVA ${line.ivaCentavos} vs ${line.netCentavos} × ${ivaBp / 10_000}`);
}

describe("every catalogue price × every quantity from 1 to 1 000", () => {
  it("charges exactly quantity × the shown price, with net + IVA = total", () => {
    expect(DEMO_PRODUCTS.length).toBeGreaterThan(10);
    let checked = 0;
    for (const product of DEMO_PRODUCTS) {
      const net = netForGross(product.grossCentavos);
      expect(priceWithIva(net, IVA_BP), product.sku).toBe(product.grossCentavos);
      for (let quantity = 1; quantity <= 1_000; quantity += 1) {
        expectLineAddsUp(quantity, net, IVA_BP);
        checked += 1;
      }
    }
    expect(checked).toBe(DEMO_PRODUCTS.length * 1_000);
  });

  it("holds for awkward prices and the 8 % and 0 % rates too", () => {
    for (const ivaBp of [0, 800, 1600]) {
      for (const net of [1, 3, 4, 33, 99, 7_672, 12_345, 123_457, 999_999]) {
        for (let quantity = 1; quantity <= 1_000; quantity += 1) expectLineAddsUp(quantity, net, ivaBp);
      }
    }
  });
});

describe("priceLines", () => {
  it("sums the lines: the total is the sum of quantity × shown price", () => {
    const { totals, lines } = priceLines([
      { quantity: 4, unitPriceCentavos: 18_990, ivaBp: 1600 }, // shown $220.28; 4 × = $881.12
      { quantity: 25, unitPriceCentavos: 1_337, ivaBp: 1600 }, // shown $15.51; 25 × = $387.75
      { quantity: 1, unitPriceCentavos: 245_000, ivaBp: 1600 }, // shown $2,842.00
    ]);
    expect(lines.map((line) => line.totalCentavos)).toEqual([88_112, 38_775, 284_200]);
    expect(totals.totalCentavos).toBe(88_112 + 38_775 + 284_200);
    expect(totals.subtotalCentavos + totals.ivaCentavos).toBe(totals.totalCentavos);
    expect(totals.subtotalCentavos).toBe(lines.reduce((sum, line) => sum + line.netCentavos, 0));
    expect(totals.ivaCentavos).toBe(lines.reduce((sum, line) => sum + line.ivaCentavos, 0));
  });

  it("keeps the caller's fields on each line", () => {
    const { lines } = priceLines([{ quantity: 2, unitPriceCentavos: 100, ivaBp: 1600, name: "Buje" }]);
    expect(lines[0]).toMatchObject({ name: "Buje", netCentavos: 200, ivaCentavos: 32, unitPriceWithIvaCentavos: 116, totalCentavos: 232 });
  });
});
