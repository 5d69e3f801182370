import { describe, expect, it } from "vitest";
import { isDue, minuteSlot, parseCronExpression } from "./cron-expression";

const at = (iso: string) => new Date(iso);

describe("cron expressions", () => {
  it("matches every minute, steps, ranges, lists and the macros, in UTC", () => {
    expect(isDue(parseCronExpression("* * * * *"), at("2026-11-25T03:17:42Z"))).toBe(true);
    const quarter = parseCronExpression("*/15 * * * *");
    expect([0, 15, 30, 45].every((minute) => isDue(quarter, at(`2026-11-25T03:${String(minute).padStart(2, "0")}:00Z`)))).toBe(true);
    expect(isDue(quarter, at("2026-11-25T03:16:00Z"))).toBe(false);
    const nightly = parseCronExpression("30 4 * * *");
    expect(isDue(nightly, at("2026-11-25T04:30:59Z"))).toBe(true);
    expect(isDue(nightly, at("2026-11-25T05:30:00Z"))).toBe(false);
    const weekdays = parseCronExpression("0 9-17/4 * * 1-5");
    expect(isDue(weekdays, at("2026-11-25T13:00:00Z"))).toBe(true); // a Wednesday, 9 + 4
    expect(isDue(weekdays, at("2026-11-25T14:00:00Z"))).toBe(false);
    expect(isDue(weekdays, at("2026-11-29T13:00:00Z"))).toBe(false); // a Sunday
    const listed = parseCronExpression("5,10 0 1,15 1,7 *");
    expect(isDue(listed, at("2026-07-15T00:10:00Z"))).toBe(true);
    expect(isDue(listed, at("2026-07-16T00:10:00Z"))).toBe(false);
    expect(isDue(parseCronExpression("@hourly"), at("2026-11-25T03:00:10Z"))).toBe(true);
    expect(isDue(parseCronExpression("@daily"), at("2026-11-25T03:00:00Z"))).toBe(false);
    expect(isDue(parseCronExpression("@daily"), at("2026-11-25T00:00:00Z"))).toBe(true);
  });

  it("refuses what is not an expression", () => {
    for (const bad of ["", "* * * *", "* * * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "5-1 * * * *", "*/0 * * * *", "a * * * *", "@sometimes"]) {
      expect(() => parseCronExpression(bad), bad).toThrow(/Invalid cron expression/);
    }
  });

  it("puts a moment in the slot of its minute", () => {
    expect(minuteSlot(at("2026-11-25T03:17:42.123Z")).toISOString()).toBe("2026-11-25T03:17:00.000Z");
  });
});
