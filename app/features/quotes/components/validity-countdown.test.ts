import { describe, expect, it } from "vitest";
import { calendarDaysBetween } from "~/lib/time";
import { describeValidity } from "./validity-countdown";

// Validity is counted in calendar days of Mexico City (UTC−6 all year since 2022), not in blocks of
// 24 hours, so the words match the dates people read on the page.

describe("calendarDaysBetween", () => {
  it("counts Mexico City calendar days, not UTC ones", () => {
    // 23:30 on 9 March in Mexico City is already 10 March in UTC.
    const lateEvening = new Date("2026-03-10T05:30:00Z");
    expect(calendarDaysBetween(lateEvening, new Date("2026-03-10T07:00:00Z"))).toBe(1);
    expect(calendarDaysBetween(lateEvening, new Date("2026-03-10T05:45:00Z"))).toBe(0);
    expect(calendarDaysBetween(new Date("2026-03-10T16:00:00Z"), new Date("2026-04-09T16:00:00Z"))).toBe(30);
    expect(calendarDaysBetween(new Date("2026-03-10T16:00:00Z"), new Date("2026-03-08T16:00:00Z"))).toBe(-2);
  });
});

describe("describeValidity", () => {
  const now = new Date("2026-03-10T16:00:00Z"); // 10:00 in Mexico City

  it("counts down a sent quote", () => {
    expect(describeValidity("enviada", new Date("2026-04-09T16:00:00Z"), now)).toEqual({ label: "vence en 30 días", tone: "ok" });
    expect(describeValidity("enviada", new Date("2026-03-13T16:00:00Z"), now)).toEqual({ label: "vence en 3 días", tone: "soon" });
    expect(describeValidity("enviada", new Date("2026-03-11T08:00:00Z"), now)).toEqual({ label: "vence mañana", tone: "soon" });
    expect(describeValidity("enviada", new Date("2026-03-11T05:59:00Z"), now)).toEqual({ label: "vence hoy", tone: "soon" });
    expect(describeValidity("enviada", "2026-03-10T23:00:00.000Z", now.toISOString())).toEqual({ label: "vence hoy", tone: "soon" });
  });

  it("says vencida, or the final state, once it can no longer be accepted", () => {
    expect(describeValidity("vencida", new Date("2026-03-01T16:00:00Z"), now)).toEqual({ label: "vencida", tone: "expired" });
    expect(describeValidity("aceptada", new Date("2026-04-09T16:00:00Z"), now)).toEqual({ label: "aceptada", tone: "final" });
    expect(describeValidity("rechazada", null, now)).toEqual({ label: "rechazada", tone: "final" });
    expect(describeValidity("cancelada", null, now)).toEqual({ label: "cancelada", tone: "final" });
  });
});
