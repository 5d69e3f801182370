import { describe, expect, it } from "vitest";
import { allowedNextStatuses, canMoveSolicitud, SOLICITUD_STATUS_ORDER, SOLICITUD_TRANSITIONS } from "./states";

// The state table the staff page and the commands both read.

describe("solicitud states", () => {
  it("offers the staff each status's moves in the page's order; final statuses offer none", () => {
    expect(allowedNextStatuses("nuevo")).toEqual(["en_revision", "cerrado", "descartado"]);
    expect(allowedNextStatuses("en_revision")).toEqual(["cotizado", "cerrado", "descartado"]);
    expect(allowedNextStatuses("cotizado")).toEqual(["cerrado", "descartado"]);
    expect(allowedNextStatuses("cerrado")).toEqual([]);
    expect(allowedNextStatuses("descartado")).toEqual([]);
  });

  it("lets a quote mark a request «cotizado» from nuevo or en revisión, and nothing else", () => {
    expect(allowedNextStatuses("nuevo", "cotizacion")).toEqual(["cotizado"]);
    expect(allowedNextStatuses("en_revision", "cotizacion")).toEqual(["cotizado"]);
    expect(canMoveSolicitud({ from: "cerrado", to: "cotizado", who: "cotizacion" })).toBe(false);
    expect(canMoveSolicitud({ from: "nuevo", to: "cotizado", who: "personal" })).toBe(false);
  });

  it("names only known statuses, and never leads out of a final one", () => {
    for (const row of SOLICITUD_TRANSITIONS) {
      expect(SOLICITUD_STATUS_ORDER).toContain(row.from);
      expect(SOLICITUD_STATUS_ORDER).toContain(row.to);
      expect(["cerrado", "descartado"]).not.toContain(row.from);
    }
  });
});
