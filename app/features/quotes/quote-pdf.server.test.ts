import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it, vi } from "vitest";

// The quote PDF on a real database: quotes made through the domain functions, the PDF rendered by
// @react-pdf/renderer and read back with unpdf (so the test sees what a PDF reader sees).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("quote-pdf"));

import { formatMoney } from "~/lib/format";
import { ajustes } from "~/features/site/content-collections/ajustes";
import { factsFromAjustes, getSiteFacts } from "~/features/site/site-facts.server";
import { formatClabe } from "~/services/site-config/payment-account";
import { quoteDefaults, siteConfig } from "~/services/site-config/site-config";
import { registeredCustomer } from "../../../tests/support/auth-requests";
import { INTERNAL_NOTE, SAMPLE_LINES, STAFF_ACTOR, createTestQuote, draftInput } from "../../../tests/support/quote-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { getQuotePdf, renderQuotePdf, type QuotePdfDocument } from "./quote-pdf.server";
import { saveQuoteDraft } from "./draft.server";
import { acceptQuote, rejectQuote, reviseQuote } from "./lifecycle.server";

let owner = { id: "", name: "José Ñúñez Peña", email: "" };
let other = { id: "" };

useTestFileDatabase(dataDir, async () => {
  const { user: registered } = await registeredCustomer("José Ñúñez Peña", `jose-${process.pid}@ejemplo.mx`, "Fresadora-CNC-42");
  owner = { id: registered.id, name: registered.name, email: registered.email };
  other = { id: (await registeredCustomer("Otra Persona", `otra-${process.pid}@ejemplo.mx`, "Fresadora-CNC-43")).id };
});

async function pdfText(body: Buffer): Promise<{ text: string; pages: string[] }> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text: pages } = await extractText(pdf, { mergePages: false });
  return { text: pages.join("\n"), pages };
}

const customer = () => ({ name: owner.name, email: owner.email, company: "Ensambles del Bajío", userId: owner.id });

describe("getQuotePdf", () => {
  it("gives the owner a branded PDF with the number, the total and every accent intact", async () => {
    const quote = await createTestQuote(customer());
    const pdf = await getQuotePdf(quote.id, { userId: owner.id, staff: false });
    expect(pdf?.filename).toBe(`${quote.number}.pdf`);
    expect(pdf!.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text } = await pdfText(pdf!.body);

    expect(text).toContain(quote.number);
    expect(text).toContain(formatMoney(quote.totalCentavos));
    expect(quote.totalCentavos).toBe(1_460_729); // 12,500 + 3 × 33.33 × 0.925 = 92.49; IVA per line
    expect(text).toContain("$14,607.29");
    // The brand and the accents of Spanish (Latin-1, in Helvetica's WinAnsi encoding).
    expect(text).toContain("Forja Diseño y Manufactura");
    expect(text).toContain("RFC FDM150312AB1");
    expect(text).toContain("Santa Rosa Jáuregui, Querétaro");
    expect(text).toContain("ventas@forja.example");
    expect(text).toContain("José Ñúñez Peña");
    expect(text).toContain("Diseño de ménsula para línea de ensamble");
    expect(text).toContain("12 días hábiles");
    expect(text).toContain("COTIZACIÓN");
    expect(text).toContain("IVA 16 %");
    expect(text).toMatch(/Válida hasta el \d{1,2} de [a-z]+ de \d{4}/);
    expect(text).toContain("Términos y condiciones");
    expect(text).toContain("Factura CFDI 4.0");
    expect(text).toContain("Página 1 de 1");
    // Staff-only notes never reach the customer's PDF, and nothing is signed yet.
    expect(text).not.toContain(INTERNAL_NOTE);
    expect(text).not.toContain("Aceptada por");
    expect(text).not.toContain("BORRADOR");
    // Nothing to pay before the customer accepts.
    expect(text).not.toContain("Datos para el pago");
    expect(text).not.toContain("CLABE");
  });

  it("adds the signature block once the customer accepts", async () => {
    const quote = await createTestQuote(customer());
    const accepted = await acceptQuote(quote.id, { id: owner.id, name: owner.name }, { fullName: "José Ñúñez Peña", ip: "203.0.113.7", userAgent: "vitest" });
    expect(accepted.ok).toBe(true);
    const { text } = await pdfText((await getQuotePdf(quote.id, { userId: owner.id, staff: false }))!.body);
    expect(text).toMatch(/Aceptada por José Ñúñez Peña el \d{1,2} [a-z]{3} \d{4}, \d{1,2}:\d{2} [ap]\.m\. \(hora de la Ciudad de México\) desde 203\.0\.113\.7\./);
    expect(text).toContain("Estado: Aceptada");
    // The SPEI details of the `ajustes` account (the one orders use), with the quote number as reference.
    const account = (await getSiteFacts()).payment;
    expect(text).toContain("Datos para el pago (SPEI)");
    expect(text).toContain(`Banco: ${account.bank}`);
    expect(text).toContain(`CLABE: ${formatClabe(account.clabe)}`);
    expect(text).toContain(`Beneficiario: ${account.beneficiary}`);
    expect(text).toContain(`Referencia: ${quote.number}`);
    expect(text).toContain(`anticipo del ${siteConfig.paymentTerms.depositPercent} %`);
  });

  it("states a rejection and its reason", async () => {
    const quote = await createTestQuote(customer());
    expect((await rejectQuote(quote.id, { id: owner.id, name: owner.name }, { reason: "plazo", note: "Necesitamos 5 días" })).ok).toBe(true);
    const { text } = await pdfText((await getQuotePdf(quote.id, { userId: owner.id, staff: false }))!.body);
    expect(text).toContain("El plazo de entrega no nos funciona — Necesitamos 5 días");
    expect(text).not.toContain("Aceptada por");
  });

  it("is nobody else's: another customer, or the owner before the quote is sent, get nothing", async () => {
    const sent = await createTestQuote(customer());
    expect(await getQuotePdf(sent.id, { userId: other.id, staff: false })).toBeNull();
    const draft = await createTestQuote(customer(), { send: false });
    expect(await getQuotePdf(draft.id, { userId: owner.id, staff: false })).toBeNull();
    expect(await getQuotePdf("no-es-un-id", { userId: owner.id, staff: false })).toBeNull();
  });

  it("gives staff the newest revision, marked BORRADOR while unsent; the customer keeps the sent one", async () => {
    const quote = await createTestQuote(customer());
    expect((await reviseQuote(quote.id, STAFF_ACTOR)).ok).toBe(true);
    const revised = await saveQuoteDraft(
      quote.id,
      draftInput(customer(), { lines: [...SAMPLE_LINES, { description: "Empaque individual con etiqueta", quantity: 3_000, unit: "pieza", unitPrice: 4_500, discount: 0 }] }),
      STAFF_ACTOR,
    );
    expect(revised.ok).toBe(true);

    const staff = await pdfText((await getQuotePdf(quote.id, { userId: "staff", staff: true }))!.body);
    expect(staff.text).toContain("BORRADOR");
    expect(staff.text).toContain("Revisión 2");
    expect(staff.text).toContain("Empaque individual con etiqueta");
    expect(staff.text).toContain("Válida 30 días a partir de su envío.");
    expect(staff.text).not.toContain(INTERNAL_NOTE);

    const owners = await pdfText((await getQuotePdf(quote.id, { userId: owner.id, staff: false }))!.body);
    expect(owners.text).toContain("Revisión 1");
    expect(owners.text).not.toContain("Empaque individual");
    expect(owners.text).not.toContain("BORRADOR");
  });

  it("runs long quotes over several pages, each numbered", async () => {
    const lines = Array.from({ length: 45 }, (_, index) => ({
      description: `Pieza ${index + 1}: soporte de acero A36 con barrenos avellanados y acabado en pintura electrostática`,
      quantity: 2_000,
      unit: "pieza" as const,
      unitPrice: 15_000 + index,
      discount: 0,
    }));
    const quote = await createTestQuote(customer(), { overrides: { lines } });
    const { pages, text } = await pdfText((await getQuotePdf(quote.id, { userId: owner.id, staff: false }))!.body);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => expect(page).toContain(`Página ${index + 1} de ${pages.length}`));
    // The table head repeats on every page the table runs onto.
    expect(pages[1]).toMatch(/^# Descripción Cantidad P\. unitario Descuento Importe/);
    expect(text).toContain("Pieza 45:");
    expect(text).toContain(formatMoney(quote.totalCentavos));
  });
});

/** Each line of text on the first page with its baseline (PDF points from the bottom). */
async function pdfLines(body: Buffer): Promise<{ text: string; y: number }[]> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const content = await (await pdf.getPage(1)).getTextContent();
  const lines: { text: string; y: number }[] = [];
  for (const item of content.items) {
    if (!("str" in item) || !item.str.trim()) continue;
    const y = Math.round(item.transform[5] * 10) / 10;
    const line = lines.find((candidate) => Math.abs(candidate.y - y) < 0.5);
    if (line) line.text += item.str;
    else lines.push({ text: item.str, y });
  }
  return lines.sort((a, b) => b.y - a.y);
}

const aDocument = (overrides: Partial<QuotePdfDocument> = {}): QuotePdfDocument => ({
  number: "COT-2026-0042",
  revision: 1,
  draft: false,
  status: "enviada",
  sentAt: new Date("2026-03-02T17:00:00Z"),
  validUntil: new Date("2026-04-01T17:00:00Z"),
  validityDays: 30,
  customer: { name: "Ana Torres", company: null, email: "ana@ejemplo.mx" },
  lines: [
    { description: "Soporte maquinado", quantityMilli: 10_000, unit: "pieza", unitPriceCentavos: 10_000, discountBp: 0, netCentavos: 100_000, ivaCentavos: 16_000 },
    { description: "Plantilla de inspección", quantityMilli: 1_000, unit: "juego", unitPriceCentavos: 50_000, discountBp: 0, netCentavos: 50_000, ivaCentavos: 8_000 },
    { description: "Cinta de sellado", quantityMilli: 2_500, unit: "metro", unitPriceCentavos: 2_000, discountBp: 0, netCentavos: 5_000, ivaCentavos: 800 },
  ],
  subtotalCentavos: 155_000,
  ivaCentavos: 24_800,
  totalCentavos: 179_800,
  leadTimeDays: 10,
  terms: quoteDefaults.terms,
  acceptance: null,
  rejection: null,
  payment: null,
  generatedAt: new Date("2026-03-02T17:00:00Z"),
  ...overrides,
});

const seedFacts = factsFromAjustes(ajustes.seed()[0]!);

describe("renderQuotePdf", () => {
  it("prints the business facts it is given: those of the published `ajustes` record (docs/decisions/0047)", async () => {
    const facts = factsFromAjustes({ ...ajustes.seed()[0]!, telefono: "442 555 0188", correo: "cotizaciones@ejemplo.mx", anticipo_porcentaje: 40, pago_series: "Series con anticipo del 40 %." });
    const { text } = await pdfText(await renderQuotePdf(aDocument({ status: "aceptada", payment: { bank: "Banorte", clabe: "002010077777777771", clabeDisplay: "002 010 07777777777 1", beneficiary: "Forja", reference: "COT-2026-0042" } }), facts));
    expect(text).toContain("Tel. 442 555 0188 · cotizaciones@ejemplo.mx");
    expect(text).not.toContain(siteConfig.phone.display);
    expect(text).toContain("anticipo del 40 %");
    expect(text).toContain("envíe el comprobante a cotizaciones@ejemplo.mx");
  });

  it("writes each quantity with its unit in the right number", async () => {
    const { text } = await pdfText(await renderQuotePdf(aDocument(), seedFacts));
    expect(text).toContain("10 piezas");
    expect(text).toContain("1 juego");
    expect(text).toContain("2.5 metros");
    expect(text).not.toMatch(/10 pieza(?!s)/);
  });

  it("sets the terms in single-spaced lines (about 1.4 × the 9 pt body), however they were typed", async () => {
    for (const terms of [quoteDefaults.terms, quoteDefaults.terms.replace(". ", ".\r\n")]) {
      const lines = await pdfLines(await renderQuotePdf(aDocument({ terms }), seedFacts));
      const heading = lines.findIndex((line) => line.text.includes("Términos y condiciones"));
      const paragraph = lines.slice(heading + 1).filter((line) => !/Página|COT-2026-0042 ·/.test(line.text));
      expect(paragraph.length).toBeGreaterThan(2);
      expect(paragraph.map((line) => line.text).join(" ")).toContain("Factura CFDI 4.0.");
      const gaps = paragraph.slice(1).map((line, index) => paragraph[index]!.y - line.y);
      for (const gap of gaps) {
        expect(gap).toBeGreaterThan(11);
        expect(gap).toBeLessThan(14);
      }
    }
  });
});
