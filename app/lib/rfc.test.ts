import { describe, expect, it } from "vitest";
import { normalizeRfc, rfcCheckDigit, validateRfc } from "./rfc";

// RFCs published by the SAT for CFDI test certificates (real check digits), plus cases built from
// them. The check digit is the SAT's modulo-11 "dígito verificador".

describe("validateRfc", () => {
  it.each([
    // Personas morales (12)
    ["EKU9003173C9", "moral"],
    ["XIA190128J61", "moral"],
    ["IIA040805DZ4", "moral"],
    ["KIJ0906199R1", "moral"],
    ["H&E951128469", "moral"],
    ["URE180429TM6", "moral"],
    ["MAS0810247C0", "moral"],
    ["OÑO120726RX3", "moral"],
    ["ICV060329BY0", "moral"],
    // Personas físicas (13)
    ["GODE561231GR8", "fisica"],
    ["CACX7605101P8", "fisica"],
    ["JUFA7608212V6", "fisica"],
    ["MISC491214B86", "fisica"],
    ["WATM640917J45", "fisica"],
    ["FUNK671228PH6", "fisica"],
    ["CUSC850516316", "fisica"],
  ] as const)("accepts %s (persona %s)", (rfc, kind) => {
    expect(validateRfc(rfc)).toEqual({ ok: true, rfc, kind, generic: false });
  });

  it.each(["XAXX010101000", "XEXX010101000"])("accepts the generic RFC %s as written", (rfc) => {
    expect(validateRfc(rfc)).toMatchObject({ ok: true, rfc, generic: true });
  });

  it("normalises case, spaces and dashes", () => {
    expect(normalizeRfc(" gode-561231-gr8 ")).toBe("GODE561231GR8");
    expect(validateRfc("eku 900317 3c9")).toMatchObject({ ok: true, rfc: "EKU9003173C9", kind: "moral" });
  });

  it.each([
    ["EKU9003173C8", /dígito verificador/],
    ["GODE561231GR9", /dígito verificador/],
    ["XIA190128J6A", /dígito verificador/],
  ])("refuses %s: wrong check digit", (rfc, message) => {
    const result = validateRfc(rfc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it.each(["", "EKU900317", "EKU9003173C", "GODE561231GR88", "GODE561231GR8XYZ"])("refuses %j: wrong length", (rfc) => {
    const result = validateRfc(rfc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/12 caracteres .* 13/);
  });

  it.each([
    ["EK19003173C9", /3 letras/],
    ["GOD1561231GR8", /4 letras/],
    ["GODE56123AGR8", /4 letras/],
    ["GODE561231G_8", /4 letras/],
  ])("refuses %s: bad format", (rfc, message) => {
    const result = validateRfc(rfc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it.each(["GODE561331", "GODE560230", "GODE560431", "GODE561200", "EKU900229", "EKU900001"])("refuses the impossible date in %s…", (prefix) => {
    // A correct check digit for the bad date, so only the date can be what fails.
    const body = prefix.length === 10 ? `${prefix}GR` : `${prefix}3C`;
    const rfc = `${body}${rfcCheckDigit(`${body}0`)}`;
    const result = validateRfc(rfc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/fecha/);
  });

  it("accepts 29 February in a leap year", () => {
    const body = "GODE000229GR";
    expect(validateRfc(`${body}${rfcCheckDigit(`${body}0`)}`).ok).toBe(true);
  });
});

describe("rfcCheckDigit", () => {
  it.each([
    ["GODE561231GR8", "8"],
    ["EKU9003173C9", "9"],
    ["XEXX010101000", "0"],
  ])("computes the digit of %s", (rfc, digit) => {
    expect(rfcCheckDigit(rfc)).toBe(digit);
  });

  it("gives A when 11 − remainder is 10", () => {
    // Search a homoclave whose digit is A: proves the 10 → "A" branch is reachable and accepted.
    const alphabet = "ABCDEFGHIJKLMNPQRSTUVWXYZ123456789";
    let found: string | undefined;
    for (const a of alphabet) {
      for (const b of alphabet) {
        const body = `GODE561231${a}${b}`;
        if (rfcCheckDigit(`${body}0`) === "A") {
          found = `${body}A`;
          break;
        }
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    expect(validateRfc(found!).ok).toBe(true);
  });
});
