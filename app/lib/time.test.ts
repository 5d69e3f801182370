import { describe, expect, it } from "vitest";
import { addDays, calendarDaysBetween, isIsoDay, mexicoCityDateTime, mexicoCityDay, mexicoCityDayRange, mexicoCityYear, startOfMexicoCityDay } from "./time";

describe("Mexico City calendar maths", () => {
  it("finds where a day begins, with and without daylight saving time", () => {
    expect(startOfMexicoCityDay("2026-03-10").toISOString()).toBe("2026-03-10T06:00:00.000Z");
    expect(startOfMexicoCityDay("2022-06-15").toISOString()).toBe("2022-06-15T05:00:00.000Z");
    expect(startOfMexicoCityDay("2022-04-03").toISOString()).toBe("2022-04-03T06:00:00.000Z");
  });

  it("makes an inclusive range of whole days", () => {
    const range = mexicoCityDayRange("2026-03-01", "2026-03-31");
    expect(range.start?.toISOString()).toBe("2026-03-01T06:00:00.000Z");
    expect(range.end?.toISOString()).toBe("2026-04-01T06:00:00.000Z");
    expect(mexicoCityDayRange()).toEqual({ start: undefined, end: undefined });
  });

  it("names the local day and year of an instant near midnight UTC", () => {
    const lateEvening = new Date("2027-01-01T03:00:00Z"); // 31 Dec 2026, 21:00 in Mexico City
    expect(mexicoCityDay(lateEvening)).toBe("2026-12-31");
    expect(mexicoCityYear(lateEvening)).toBe(2026);
    expect(mexicoCityDateTime(lateEvening)).toBe("2026-12-31 21:00");
    expect(mexicoCityDateTime(null)).toBe("");
  });

  it("checks and moves calendar days", () => {
    expect(isIsoDay("2026-02-28")).toBe(true);
    expect(isIsoDay("2026-02-30")).toBe(false);
    expect(isIsoDay("28/02/2026")).toBe(false);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(calendarDaysBetween(new Date("2026-11-24T23:00:00-06:00"), new Date("2026-11-25T09:00:00-06:00"))).toBe(1);
  });
});
