import { describe, expect, it } from "vitest";
import { paymentReferenceFor } from "./payment-config";

describe("paymentReferenceFor", () => {
  it("is the order number without dashes plus a check digit", () => {
    const reference = paymentReferenceFor("PED-2026-0001");
    expect(reference).toBe("PED202600011");
    expect(paymentReferenceFor("PED-2026-0002")).not.toBe(reference);
  });
});
