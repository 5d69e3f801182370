import { describe, expect, it } from "vitest";
import { saveDraft } from "~/services/content/drafts.server";
import { listEntries } from "~/services/content/entries.server";
import { publish } from "~/services/content/publish.server";
import { seedContent } from "~/services/content/seed.server";
import { siteConfig } from "~/services/site-config/site-config";
import { setupTestDatabaseWithChangeFeed } from "../../../tests/support/test-database";
import { ajustes, type Ajustes } from "./content-collections/ajustes";
import { listFaqGroups } from "./faqs.server";
import { getPublishedPage } from "./pages.server";
import { getPublicSiteFacts, getSiteFacts } from "./site-facts.server";

// The business facts on a real database with the change feed listening, as on the server: the seed
// before the record exists, then whatever is published in `ajustes`, never a draft
// (docs/decisions/0047).

setupTestDatabaseWithChangeFeed();

const ADMIN = { id: "00000000-0000-4000-8000-000000000001", name: "Ana Administradora" };

async function theRecord() {
  const [entry] = await listEntries(ajustes);
  return entry!;
}

describe("getSiteFacts", () => {
  it("answers the seed's facts before the record exists, so nothing crashes", async () => {
    expect(await listEntries(ajustes)).toEqual([]);
    const facts = await getSiteFacts();
    expect(facts.phone).toEqual({ display: siteConfig.phone.display, href: siteConfig.phone.href });
    expect(facts.whatsapp.number).toBe(siteConfig.whatsapp.number);
    expect(facts.address.formatted).toBe("Parque Industrial Querétaro, Santa Rosa Jáuregui, Querétaro, CP 76220");
    expect(facts.hours.days).toEqual(siteConfig.hours.days);
  });

  it("reads the published record: a draft is not read, a publish is read by the next call", async () => {
    await seedContent();
    const seeded = await theRecord();
    expect((await getSiteFacts()).phone.display).toBe(siteConfig.phone.display);

    const changed: Ajustes = { ...seeded.published!, telefono: "442 555 0147", vigencia_dias: 45, banco: "Banorte", correo: "pedidos@ejemplo.mx" };
    const draft = await saveDraft(ajustes, { id: seeded.id, data: changed, expectedVersion: seeded.version }, ADMIN);
    expect(draft.ok).toBe(true);
    // A draft is the admin's, not the public's: pages, emails and PDFs keep the published phone.
    expect((await getSiteFacts()).phone.display).toBe(siteConfig.phone.display);

    const published = await publish(ajustes, seeded.id, ADMIN);
    expect(published.ok).toBe(true);
    const facts = await getSiteFacts();
    expect(facts.phone).toEqual({ display: "442 555 0147", href: "tel:+524425550147" });
    expect(facts.email).toBe("pedidos@ejemplo.mx");
    expect(facts.payment.bank).toBe("Banorte");
    expect(facts.quoteDefaults.validityDays).toBe(45);
    expect(facts.paymentTerms.rule).toBe(`${changed.pago_al_confirmar} ${changed.pago_series}`);
  });

  it("keeps the bank account, payment terms and quote defaults out of the public facts", async () => {
    const shown = await getPublicSiteFacts();
    expect(shown.phone.display).toBe("442 555 0147");
    expect(shown).not.toHaveProperty("payment");
    expect(JSON.stringify(shown)).not.toContain((await getSiteFacts()).payment.clabe);
    expect(shown).not.toHaveProperty("quoteDefaults");
    expect(shown).not.toHaveProperty("paymentTerms");
  });
});

describe("the FAQ and the legal pages quote the published facts (docs/decisions/0087)", () => {
  const faqHtml = async () => (await listFaqGroups()).flatMap((group) => group.items.map((item) => item.answerHtml)).join("\n");

  it("show the seeded facts in place of their names, and the new ones after a publish in Ajustes", async () => {
    const before = await faqHtml();
    const terms = (await getPublishedPage("terminos"))!.html;
    expect(before).toContain(siteConfig.hours.inSentence);
    expect(terms).toContain(siteConfig.hours.inSentence);
    expect(terms).toContain(siteConfig.rfc);
    for (const html of [before, terms]) expect(html).not.toMatch(/\{[a-z_]+\}/);

    const record = await theRecord();
    const changed: Ajustes = {
      ...record.published!,
      horario: "Lunes a sábado, 7:00 a 15:00",
      horario_en_frase: "de lunes a sábado de 7:00 a 15:00",
      abre: "07:00",
      cierra: "15:00",
      direccion: "Av. de la Luz 1200",
      correo: "planta@ejemplo.mx",
      credito: "",
    };
    const draft = await saveDraft(ajustes, { id: record.id, data: changed, expectedVersion: record.version }, ADMIN);
    expect(draft.ok).toBe(true);
    expect(await faqHtml()).not.toContain("de lunes a sábado de 7:00 a 15:00");
    expect((await publish(ajustes, record.id, ADMIN)).ok).toBe(true);

    const after = await faqHtml();
    expect(after).toContain("de lunes a sábado de 7:00 a 15:00");
    expect(after).not.toContain(siteConfig.hours.inSentence);
    expect(after).toContain("Av. de la Luz 1200, Santa Rosa Jáuregui");
    expect(after).toContain("planta@ejemplo.mx");
    const newTerms = (await getPublishedPage("terminos"))!.html;
    expect(newTerms).toContain("de lunes a sábado de 7:00 a 15:00");
    expect(newTerms).toContain("planta@ejemplo.mx");
    // No credit: the payment answer ends with the rule, without a stray space.
    expect(after).toContain(`<p>${changed.pago_al_confirmar} ${changed.pago_series}</p>`);
  });
});
