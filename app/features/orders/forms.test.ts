import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { CheckoutSchema } from "./forms";

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

const base = { name: "Ana Ruiz", email: "Ana@Empresa.MX", phone: "442 123 4567", delivery: "recoger", paymentMethod: "spei" };
const invoice = { requiereFactura: "on", rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G01", codigoPostalFiscal: "26015" };

function errorsOf(values: Record<string, string>) {
  const parsed = parseWithZod(form(values), { schema: CheckoutSchema });
  return parsed.status === "success" ? null : parsed.error;
}

describe("CheckoutSchema", () => {
  it("accepts a pickup without invoice", () => {
    const parsed = parseWithZod(form(base), { schema: CheckoutSchema });
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    expect(parsed.value).toMatchObject({ contact: { email: "ana@empresa.mx" }, delivery: "recoger", address: null, invoice: null, paymentMethod: "spei" });
  });

  it("requires a full Mexican address for envío", () => {
    const errors = errorsOf({ ...base, delivery: "envio", codigoPostal: "7622", estado: "Texas" });
    expect(Object.keys(errors ?? {})).toEqual(expect.arrayContaining(["calle", "numero", "colonia", "codigoPostal", "municipio", "estado"]));
    expect(errors?.codigoPostal?.[0]).toMatch(/5 dígitos/);
    expect(errors?.estado?.[0]).toMatch(/lista/);
    const ok = parseWithZod(
      form({ ...base, delivery: "envio", calle: "Av. 5 de Febrero", numero: "2125", colonia: "Jurica", codigoPostal: "76100", municipio: "Querétaro", estado: "Querétaro" }),
      { schema: CheckoutSchema },
    );
    expect(ok.status).toBe("success");
  });

  it("offers pago al recoger only with pickup", () => {
    expect(errorsOf({ ...base, delivery: "envio", paymentMethod: "recoger", calle: "A", numero: "1", colonia: "B", codigoPostal: "76100", municipio: "C", estado: "Jalisco" })?.paymentMethod?.[0]).toMatch(/recoge/);
  });

  it("validates the invoice data and normalises the RFC", () => {
    const parsed = parseWithZod(form({ ...base, ...invoice, rfc: "eku900317-3c9" }), { schema: CheckoutSchema });
    expect(parsed.status).toBe("success");
    if (parsed.status === "success") expect(parsed.value.invoice).toStrictEqual({ rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G01", codigoPostal: "26015" });
  });

  it("checks the régimen against persona física / moral by RFC length", () => {
    expect(errorsOf({ ...base, ...invoice, regimenFiscal: "612" })?.regimenFiscal?.[0]).toMatch(/persona moral/);
    expect(errorsOf({ ...base, ...invoice, rfc: "GODE561231GR8", regimenFiscal: "601" })?.regimenFiscal?.[0]).toMatch(/persona física/);
    expect(errorsOf({ ...base, ...invoice, rfc: "GODE561231GR8", regimenFiscal: "612" })).toBeNull();
    expect(errorsOf({ ...base, ...invoice, rfc: "GODE561231GR8", regimenFiscal: "626" })).toBeNull();
    expect(errorsOf({ ...base, ...invoice, regimenFiscal: "626" })).toBeNull();
  });

  it("checks the uso CFDI against the persona and the régimen", () => {
    expect(errorsOf({ ...base, ...invoice, usoCfdi: "D01" })?.usoCfdi?.[0]).toMatch(/no aplica a una persona moral/);
    expect(errorsOf({ ...base, ...invoice, rfc: "GODE561231GR8", regimenFiscal: "605", usoCfdi: "G01" })?.usoCfdi?.[0]).toMatch(/régimen 605/);
    expect(errorsOf({ ...base, ...invoice, rfc: "GODE561231GR8", regimenFiscal: "605", usoCfdi: "S01" })).toBeNull();
  });

  it("accepts the generic RFC only with régimen 616 and uso S01", () => {
    expect(errorsOf({ ...base, ...invoice, rfc: "XAXX010101000", regimenFiscal: "616", usoCfdi: "S01" })).toBeNull();
    const errors = errorsOf({ ...base, ...invoice, rfc: "XAXX010101000" });
    expect(errors?.regimenFiscal?.[0]).toMatch(/616/);
    expect(errors?.usoCfdi?.[0]).toMatch(/S01/);
  });

  it("reports a bad RFC next to the field and ignores invoice fields when no factura is asked", () => {
    expect(errorsOf({ ...base, ...invoice, rfc: "EKU9003173C8" })?.rfc?.[0]).toMatch(/dígito verificador/);
    // Also while other fields are still empty, so the person sees it as soon as they leave the field.
    const early = errorsOf({ delivery: "recoger", paymentMethod: "spei", requiereFactura: "on", rfc: "EKU9003173C8" });
    expect(early?.name).toBeTruthy();
    expect(early?.rfc?.[0]).toMatch(/dígito verificador/);
    expect(errorsOf({ ...base, rfc: "EKU9003173C8" })).toBeNull();
  });
});
