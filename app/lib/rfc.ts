// RFC (Registro Federal de Contribuyentes) validation, shared by the checkout form in the browser and
// the server. Format (SAT): personas morales have 12 characters (3 letters of the name), personas
// físicas 13 (4 letters); then the date YYMMDD, a 2-character homoclave and the check digit
// ("dígito verificador") computed with the SAT's modulo-11 algorithm below.

export type RfcKind = "moral" | "fisica";

export type RfcCheck =
  | { ok: true; rfc: string; kind: RfcKind; generic: boolean }
  | { ok: false; message: string };

/** Público en general (national) and residents abroad: valid as written, by SAT rule. */
export const GENERIC_RFCS = {
  nacional: "XAXX010101000",
  extranjero: "XEXX010101000",
} as const;

const GENERIC = new Set<string>(Object.values(GENERIC_RFCS));

// The SAT's table of values: 0–9, A–N, &, O–Z, space, Ñ → 0…38.
const CHECK_ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ";

const MORAL = /^[A-ZÑ&]{3}\d{6}[A-Z0-9]{2}[0-9A]$/;
const FISICA = /^[A-ZÑ&]{4}\d{6}[A-Z0-9]{2}[0-9A]$/;

/** Upper case, without spaces or dashes (people paste "GODE-561231-GR8"). */
export function normalizeRfc(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, "");
}

/**
 * The check digit of an RFC (its first 11 or 12 characters are used). A persona moral's RFC is
 * padded with a leading space to 13 characters; each of the first 12 characters' values is
 * multiplied by 13, 12, … 2; the digit is 11 − (sum mod 11), where 11 → "0" and 10 → "A".
 */
export function rfcCheckDigit(rfc: string): string {
  const chars = Array.from(rfc);
  const padded = chars.length <= 12 ? [" ", ...chars] : chars;
  let sum = 0;
  for (let index = 0; index < 12; index += 1) {
    const value = CHECK_ALPHABET.indexOf(padded[index] ?? " ");
    if (value < 0) return "?";
    sum += value * (13 - index);
  }
  const remainder = sum % 11;
  if (remainder === 0) return "0";
  const digit = 11 - remainder;
  return digit === 10 ? "A" : String(digit);
}

function isValidRfcDate(yymmdd: string): boolean {
  const year = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  // The century is not written: 29 February is valid when either 19YY or 20YY is a leap year
  // (only "00" differs: 1900 was not, 2000 was — accept it).
  const daysInMonth = [31, year % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= daysInMonth;
}

/**
 * `checkDigit: false` checks the format and the date only: for an RFC copied from the business's own
 * records (its settings), where refusing what the SAT printed would only block the owner.
 */
export function validateRfc(input: string, options: { checkDigit?: boolean } = {}): RfcCheck {
  const rfc = normalizeRfc(input);
  if (GENERIC.has(rfc)) return { ok: true, rfc, kind: "fisica", generic: true };
  const length = Array.from(rfc).length;
  if (length !== 12 && length !== 13) {
    return { ok: false, message: "El RFC tiene 12 caracteres (persona moral) o 13 (persona física)." };
  }
  const kind: RfcKind = length === 12 ? "moral" : "fisica";
  if (!(kind === "moral" ? MORAL : FISICA).test(rfc)) {
    return {
      ok: false,
      message:
        kind === "moral"
          ? "Revise el RFC: 3 letras, la fecha de constitución (AAMMDD), la homoclave y el dígito verificador, por ejemplo EKU9003173C9."
          : "Revise el RFC: 4 letras, la fecha de nacimiento (AAMMDD), la homoclave y el dígito verificador, por ejemplo GODE561231GR8.",
    };
  }
  const date = rfc.slice(kind === "moral" ? 3 : 4, kind === "moral" ? 9 : 10);
  if (!isValidRfcDate(date)) return { ok: false, message: `La fecha del RFC (${date}) no es válida: debe ser AAMMDD.` };
  const expected = rfcCheckDigit(rfc);
  if (options.checkDigit !== false && rfc.at(-1) !== expected) {
    return { ok: false, message: "El dígito verificador del RFC no coincide. Cópielo tal como aparece en su Constancia de Situación Fiscal." };
  }
  return { ok: true, rfc, kind, generic: false };
}
