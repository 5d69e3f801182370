import { afterEach, describe, expect, it, vi } from "vitest";
import { clabeCheckDigit, DEMO_CLABE, getPaymentConfig } from "~/services/site-config/payment-account";
import { paymentRule, quoteDefaults, siteConfig } from "~/services/site-config/site-config";
import { phoneHref, whatsappNumber } from "~/services/site-config/business-facts";
import { ajustes, AjustesSchema, DIAS, type Ajustes } from "./ajustes";

const seeded = (): Ajustes => ajustes.seed()[0]!;

/** The messages of a refused record, by field. */
function errors(data: Record<string, unknown>): Record<string, string[]> {
  const result = AjustesSchema.safeParse(data);
  if (result.success) return {};
  const byField: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byField[String(issue.path[0])] ??= []).push(issue.message);
  return byField;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("ajustes: the CLABE", () => {
  it("refuses a CLABE with a wrong check digit, in Spanish", () => {
    const wrongDigit = String((Number(clabeCheckDigit(DEMO_CLABE.slice(0, 17))) + 1) % 10);
    const clabe = `${DEMO_CLABE.slice(0, 17)}${wrongDigit}`;
    expect(errors({ ...seeded(), clabe })).toEqual({
      clabe: ["El dígito de control de la CLABE no coincide: cópiela completa, tal como aparece en su estado de cuenta."],
    });
  });

  it("refuses a CLABE that is not 18 digits, and accepts one written in groups", () => {
    expect(errors({ ...seeded(), clabe: DEMO_CLABE.slice(0, 17) })).toEqual({ clabe: ["La CLABE tiene 18 dígitos."] });
    expect(errors({ ...seeded(), clabe: "01218000123456789A" })).toEqual({ clabe: ["La CLABE tiene 18 dígitos."] });
    const grouped = AjustesSchema.parse({ ...seeded(), clabe: "012 180 00123456789 9" });
    expect(grouped.clabe).toBe(DEMO_CLABE);
  });
});

describe("ajustes: the RFC and the phones", () => {
  it("checks the RFC's format and date with the site's RFC rule, not its check digit", () => {
    expect(errors({ ...seeded(), rfc: "FDM150312AB1" })).toEqual({});
    expect(errors({ ...seeded(), rfc: "FD1150312AB1" }).rfc?.[0]).toMatch(/^Revise el RFC/);
    expect(errors({ ...seeded(), rfc: "FDM151312ABA" }).rfc?.[0]).toMatch(/^La fecha del RFC \(151312\) no es válida/);
    expect(errors({ ...seeded(), rfc: "XAXX010101000" })).toEqual({ rfc: ["Escriba el RFC de la empresa; el RFC genérico no sirve para facturar."] });
    expect(AjustesSchema.parse({ ...seeded(), rfc: "fdm-150312-ab1" }).rfc).toBe("FDM150312AB1");
  });

  it("takes phones as the site's forms do: ten digits, optionally after +52", () => {
    expect(errors({ ...seeded(), telefono: "442 000 000", whatsapp: "+1 415 555 0100 9" })).toEqual({
      telefono: ["Escriba un número de 10 dígitos; puede empezar con +52."],
      whatsapp: ["Escriba un número de 10 dígitos; puede empezar con +52."],
    });
    expect(errors({ ...seeded(), telefono: "(442) 123-4567", whatsapp: "524421234567" })).toEqual({});
  });

  it("derives the dialable forms the site links to today from the written numbers", () => {
    expect(phoneHref(seeded().telefono)).toBe(siteConfig.phone.href);
    expect(whatsappNumber(seeded().whatsapp)).toBe(siteConfig.whatsapp.number);
    expect(phoneHref("442 123 4567")).toBe("tel:+524421234567");
  });
});

describe("ajustes: hours, payment and quotes", () => {
  it("keeps the hours consistent: closing after opening, and both named in the written hours", () => {
    expect(errors({ ...seeded(), abre: "8:00" }).abre).toEqual(["Escriba la hora de apertura con 24 horas, por ejemplo 08:00."]);
    expect(errors({ ...seeded(), cierra: "07:00" })).toEqual({
      cierra: ["La hora de cierre debe ser posterior a la de apertura."],
      horario: ["El horario debe decir «8:00 a 7:00», como las horas de apertura y cierre."],
      horario_en_frase: ["El horario debe decir «8:00 a 7:00», como las horas de apertura y cierre."],
    });
    expect(errors({ ...seeded(), abre: "09:00", horario: "Lunes a viernes, 9:00 a 18:00", horario_en_frase: "de lunes a viernes de 9:00 a 18:00" })).toEqual({});
    expect(errors({ ...seeded(), dias: ["lunes", "Miércoles"] }).dias?.[0]).toMatch(/^Escriba días de la semana sin acentos: lunes, martes, miercoles/);
    expect(errors({ ...seeded(), dias: ["lunes", "lunes"] })).toEqual({ dias: ["Cada día va una sola vez."] });
  });

  it("asks the series payment text to state the deposit it sets", () => {
    expect(errors({ ...seeded(), anticipo_porcentaje: 30 })).toEqual({ pago_series: ["El texto de series debe mencionar el anticipo del 30 %."] });
    expect(errors({ ...seeded(), anticipo_porcentaje: 101 })).toEqual({ anticipo_porcentaje: ["El anticipo va de 0 a 100 %."] });
    expect(errors({ ...seeded(), vigencia_dias: 0, correo: "ventas" })).toEqual({
      vigencia_dias: ["La vigencia mínima es 1 día."],
      correo: ["Escriba un correo válido, por ejemplo nombre@empresa.com."],
    });
  });
});

describe("ajustes: the seed", () => {
  it("holds every business fact of site-config, the SPEI account and a new quote's terms", () => {
    const record = seeded();
    expect(record).toMatchObject({
      nombre: siteConfig.name,
      nombre_corto: siteConfig.shortName,
      razon_social: siteConfig.legalName,
      rfc: siteConfig.rfc,
      lema: siteConfig.tagline,
      descripcion: siteConfig.description,
      direccion: siteConfig.address.street,
      localidad: siteConfig.address.locality,
      estado: siteConfig.address.region,
      codigo_postal: siteConfig.address.postalCode,
      pais: siteConfig.address.country,
      horario: siteConfig.hours.label,
      horario_en_frase: siteConfig.hours.inSentence,
      abre: siteConfig.hours.opens,
      cierra: siteConfig.hours.closes,
      telefono: siteConfig.phone.display,
      whatsapp: siteConfig.whatsapp.display,
      correo: siteConfig.email,
      anticipo_porcentaje: siteConfig.paymentTerms.depositPercent,
      pago_al_confirmar: siteConfig.paymentTerms.onConfirmation,
      pago_series: siteConfig.paymentTerms.series,
      credito: siteConfig.paymentTerms.credit,
      condiciones_cotizacion: quoteDefaults.terms,
      vigencia_dias: quoteDefaults.validityDays,
    });
    expect(record.dias.map((day) => DIAS[day])).toEqual(siteConfig.hours.days);
    expect(record.condiciones_cotizacion).toContain(paymentRule());
    const payment = getPaymentConfig({});
    expect({ banco: record.banco, clabe: record.clabe, beneficiario: record.beneficiario }).toEqual({
      banco: payment.bank,
      clabe: payment.clabe,
      beneficiario: payment.beneficiary,
    });
  });

  it("takes the SPEI account of the environment when it is set, as payments do today", () => {
    const clabe = `01418000123456789${clabeCheckDigit("01418000123456789")}`;
    vi.stubEnv("SPEI_BANK", "Santander");
    vi.stubEnv("SPEI_CLABE", clabe);
    vi.stubEnv("SPEI_BENEFICIARY", "Forja Diseño y Manufactura, S.A. de C.V.");
    expect(seeded()).toMatchObject({ banco: "Santander", clabe, beneficiario: "Forja Diseño y Manufactura, S.A. de C.V." });
    expect(AjustesSchema.safeParse(seeded()).success).toBe(true);
  });

  it("is one record for admins only, shown on every page (Contacto first, for the preview)", () => {
    expect(ajustes.seed()).toHaveLength(1);
    expect(ajustes).toMatchObject({ access: "admin", singleton: true });
    expect(ajustes.paths(seeded())[0]).toBe("/contact");
  });
});
