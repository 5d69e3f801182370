// The order's SPEI reference. The account it is paid into (bank, CLABE, beneficiary) is the
// business's, shared with accepted quotes: the `ajustes` record (getSiteFacts, docs/decisions/0047).

/**
 * The reference a customer writes in the transfer's concept: the order number without dashes
 * plus one check digit (Luhn over its digits), so a mistyped reference is noticed when the
 * payment is matched. PED-2026-0001 → PED202600011.
 */
export function paymentReferenceFor(orderNumber: string): string {
  const compact = orderNumber.replace(/-/g, "");
  const digits = compact.replace(/\D/g, "");
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let value = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
  }
  return `${compact}${(10 - (sum % 10)) % 10}`;
}
