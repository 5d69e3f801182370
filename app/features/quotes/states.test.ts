import { describe, expect, it } from "vitest";
import { allowedActions, checkQuoteAction, effectiveStatus, QUOTE_TRANSITIONS, statusesAllowing } from "./states";

// The lifecycle table, on its own: what the pages show and what the domain refuses both come from it.

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-03-10T16:00:00.000Z");
const at = (days: number, base = T0) => new Date(base.getTime() + days * DAY_MS);

describe("effectiveStatus", () => {
  it("reads a sent quote past its date as vencida; at the exact instant it is still valid", () => {
    const validUntil = at(30);
    expect(effectiveStatus("enviada", validUntil, validUntil)).toBe("enviada");
    expect(effectiveStatus("enviada", validUntil, new Date(validUntil.getTime() + 1))).toBe("vencida");
    expect(effectiveStatus("aceptada", validUntil, at(60))).toBe("aceptada");
    expect(effectiveStatus("borrador", null, at(60))).toBe("borrador");
  });
});

describe("allowedActions", () => {
  it("staff may cancel a draft, a sent and an expired quote, and nothing else", () => {
    for (const status of ["borrador", "enviada", "vencida"] as const) expect(allowedActions({ status, who: "staff" })).toContain("cancelar");
    for (const status of ["aceptada", "rechazada", "cancelada"] as const) expect(allowedActions({ status, who: "staff" })).not.toContain("cancelar");
  });

  it("staff edit and send only a draft revision, and revise only from a sent one", () => {
    expect(allowedActions({ status: "borrador", who: "staff", newestSent: false })).toEqual(["guardar", "enviar", "cancelar"]);
    expect(allowedActions({ status: "enviada", who: "staff", newestSent: true })).toEqual(["revisar", "cancelar"]);
    expect(allowedActions({ status: "enviada", who: "staff", newestSent: false })).toEqual(["guardar", "enviar", "cancelar"]);
    expect(allowedActions({ status: "rechazada", who: "staff", newestSent: true })).toEqual(["revisar"]);
    expect(allowedActions({ status: "vencida", who: "staff", newestSent: true })).toEqual(["revisar", "cancelar"]);
    expect(allowedActions({ status: "aceptada", who: "staff", newestSent: false })).toEqual([]);
    expect(allowedActions({ status: "cancelada", who: "staff", newestSent: true })).toEqual([]);
  });

  it("the customer answers only a sent quote still valid", () => {
    expect(allowedActions({ status: "enviada", who: "customer" })).toEqual(["aceptar", "rechazar"]);
    for (const status of ["borrador", "aceptada", "rechazada", "vencida", "cancelada"] as const) expect(allowedActions({ status, who: "customer" })).toEqual([]);
  });
});

describe("checkQuoteAction", () => {
  it("names the revision as the reason before the status, and the target of an allowed step", () => {
    expect(checkQuoteAction({ action: "enviar", who: "staff", status: "aceptada", newestSent: true })).toEqual({ allowed: false, because: "revision" });
    expect(checkQuoteAction({ action: "enviar", who: "staff", status: "aceptada", newestSent: false })).toEqual({ allowed: false, because: "status" });
    expect(checkQuoteAction({ action: "enviar", who: "staff", status: "rechazada", newestSent: false })).toEqual({ allowed: true, to: "enviada" });
    expect(checkQuoteAction({ action: "aceptar", who: "staff", status: "enviada" })).toEqual({ allowed: false, because: "status" });
  });

  it("only the expiry job moves enviada to vencida", () => {
    expect(statusesAllowing("vencer", "system")).toEqual(["enviada"]);
    expect(QUOTE_TRANSITIONS.filter((row) => row.to === "vencida" && row.from !== "vencida")).toEqual([{ from: "enviada", action: "vencer", to: "vencida", who: "system", newest: undefined }]);
  });
});
