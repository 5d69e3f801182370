import { it } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import { renderQuotePdf } from "./quote-pdf.server";
it("renders", async () => {
  const buf = await renderQuotePdf({ number: "COT-2026-0001", revision: 1, draft: false, status: "aceptada", sentAt: new Date(), validUntil: new Date(), validityDays: 30,
    customer: { name: "Núñez Ibáñez", company: "Diseño SA", email: "a@b.mx" }, lines: [{ description: "Ménsula de acero, días", quantityMilli: 1500, unit: "pieza", unitPriceCentavos: 3333, discountBp: 750, netCentavos: 4625, ivaCentavos: 740 }],
    subtotalCentavos: 4625, ivaCentavos: 740, totalCentavos: 5365, leadTimeDays: 10, terms: "Entrega LAB planta Querétaro", notes: "", acceptance: { name: "José Peña", at: new Date(), ip: "10.0.0.1" }, rejection: null, generatedAt: new Date() });
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buf)), { mergePages: false });
  console.log(JSON.stringify(text).slice(-150), text.length);
});
