import { describe, expect, it } from "vitest";
import { DEMO_CLABE, clabeCheckDigit, formatClabe, getPaymentConfig, isValidClabe, speiDetails, speiAccountLine } from "./payment-account";

describe("CLABE", () => {
  it("computes the control digit (weights 3, 7, 1)", () => {
    expect(clabeCheckDigit("01218000123456789")).toBe("9");
    expect(isValidClabe(DEMO_CLABE)).toBe(true);
    // A real-format example published by Banxico: 002 010 07777777777 1
    expect(isValidClabe("002010077777777771")).toBe(true);
  });

  it("refuses a wrong digit, letters and other lengths", () => {
    expect(isValidClabe("012180001234567895")).toBe(false);
    expect(isValidClabe("01218000123456789A")).toBe(false);
    expect(isValidClabe("01218000123456789")).toBe(false);
  });

  it("groups the digits for reading", () => {
    expect(formatClabe(DEMO_CLABE)).toBe("012 180 00123456789 9");
  });
});

describe("getPaymentConfig", () => {
  it("uses the demo defaults", () => {
    expect(getPaymentConfig({})).toEqual({ bank: "BBVA México", clabe: DEMO_CLABE, beneficiary: "Forja Diseño y Manufactura, S.A. de C.V." });
  });

  it("reads SPEI_BANK, SPEI_CLABE and SPEI_BENEFICIARY", () => {
    expect(getPaymentConfig({ SPEI_BANK: "Banorte", SPEI_CLABE: "002 010 07777777777 1", SPEI_BENEFICIARY: "Forja SA" })).toEqual({
      bank: "Banorte",
      clabe: "002010077777777771",
      beneficiary: "Forja SA",
    });
  });

  it("refuses an invalid CLABE loudly", () => {
    expect(() => getPaymentConfig({ SPEI_CLABE: "012180001234567895" })).toThrow(/SPEI_CLABE/);
  });
});

describe("speiDetails and speiAccountLine", () => {
  it("give the same account with the reference, for pages and emails", () => {
    const details = speiDetails(getPaymentConfig({ SPEI_BANK: "Banorte", SPEI_CLABE: "002010077777777771" }), "COT-2026-0007");
    expect(details).toEqual({
      bank: "Banorte",
      clabe: "002010077777777771",
      clabeDisplay: "002 010 07777777777 1",
      beneficiary: "Forja Diseño y Manufactura, S.A. de C.V.",
      reference: "COT-2026-0007",
    });
    expect(speiAccountLine(details)).toBe("Banco: Banorte · CLABE: 002 010 07777777777 1 · Beneficiario: Forja Diseño y Manufactura, S.A. de C.V.");
  });
});
