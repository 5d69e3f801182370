import { describe, expect, it } from "vitest";
import { atTime, endSentence, formatCount, formatWorkingDays, formatDate, formatDateTime, formatFileSize, formatMoney, formatNumber, formatRecordNumber, clipFileName, shortFileName, visibleFileName } from "./format";

// Intl may use non-breaking spaces; compare with ordinary spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney", () => {
  it("shows centavos as es-MX pesos", () => {
    const text = formatMoney(123456);
    expect(text).toContain("1,234.56");
    expect(text).toContain("$");
    expect(plain(text)).toBe("$1,234.56");
  });

  it("keeps two decimals and groups thousands", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(100)).toBe("$1.00");
    expect(formatMoney(123456789)).toBe("$1,234,567.89");
    expect(formatMoney(-50000)).toMatch(/^-\s?\$500\.00$/);
  });

  it("rejects anything but whole centavos", () => {
    expect(() => formatMoney(1.5)).toThrow(TypeError);
    expect(() => formatMoney(12.34)).toThrow(/centavos/);
    expect(() => formatMoney(Number.NaN)).toThrow(TypeError);
    expect(() => formatMoney(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });
});

describe("formatNumber", () => {
  it("groups thousands the es-MX way", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(0)).toBe("0");
  });
});

describe("money and whole numbers written without Intl", () => {
  // They skip Intl so that a page hydrating prices does not load the browser's locale data; they
  // must still read exactly as es-MX Intl writes them.
  const values = [0, 1, 7, 99, 100, 999, 1000, 8900, 10_000, 88_995, 123_456, 999_999, 1_000_000, 123_456_789, 2 ** 40, Number.MAX_SAFE_INTEGER];
  for (let n = 1; n <= 2000; n++) values.push(n * 37);
  for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n);
  const signed = values.flatMap((value) => (value === 0 ? [0] : [value, -value]));
  const money = new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" });
  const integer = new Intl.NumberFormat("es-MX");

  it("formatMoney matches Intl for every amount, negative ones too", () => {
    // Up to 10¹³ centavos: beyond that Intl itself is off by a centavo (it is given centavos / 100, a float).
    for (const centavos of signed.filter((value) => Math.abs(value) < 1e13)) {
      expect(plain(formatMoney(centavos)), String(centavos)).toBe(plain(money.format(centavos / 100)));
    }
  });

  it("formatNumber matches Intl for whole numbers and still formats fractions", () => {
    for (const value of signed) {
      expect(formatNumber(value), String(value)).toBe(integer.format(value));
    }
    expect(formatNumber(1234.5678)).toBe(integer.format(1234.5678));
  });
});

describe("dates in America/Mexico_City", () => {
  it("shows the local date, not the UTC one", () => {
    // 05:30 UTC on 1 January is 23:30 on 31 December in Mexico City (UTC-6).
    expect(formatDate("2026-01-01T05:30:00Z")).toBe("31 de diciembre de 2025");
    expect(formatDate(new Date("2026-01-01T06:00:00Z"))).toBe("1 de enero de 2026");
  });

  it("shows the local time", () => {
    const text = plain(formatDateTime("2026-01-01T05:30:00Z"));
    expect(text).toContain("31");
    expect(text).toContain("2025");
    expect(text).toMatch(/11:30\s?p\.\s?m\.|23:30/);
  });

  it("follows the historical rules of the zone (daylight time until October 2022)", () => {
    // UTC-5 in summer 2022: 04:30 UTC was still 30 June.
    expect(formatDate("2022-07-01T04:30:00Z")).toBe("30 de junio de 2022");
    expect(formatDate("2022-07-01T05:30:00Z")).toBe("1 de julio de 2022");
    // No daylight time since 2023: 05:30 UTC in July is 23:30 the day before.
    expect(formatDate("2026-07-01T05:30:00Z")).toBe("30 de junio de 2026");
  });

  it("does not depend on the process time zone", () => {
    const previous = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    try {
      expect(new Date("2026-01-01T05:30:00Z").getDate()).toBe(1); // the process zone did change
      expect(formatDate("2026-01-01T05:30:00Z")).toBe("31 de diciembre de 2025");
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });
});

describe("formatRecordNumber", () => {
  it("pads the sequence to four digits", () => {
    expect(formatRecordNumber("COT", 2026, 1)).toBe("COT-2026-0001");
    expect(formatRecordNumber("SOL", 2026, 42)).toBe("SOL-2026-0042");
    expect(formatRecordNumber("PED", 2027, 9999)).toBe("PED-2027-9999");
  });

  it("keeps longer sequences whole", () => {
    expect(formatRecordNumber("COT", 2026, 12345)).toBe("COT-2026-12345");
  });
});

describe("endSentence", () => {
  it("ends a sentence after an es-MX time with a single period", () => {
    const afternoon = formatDateTime("2026-03-02T20:30:00Z"); // 2:30 p.m. in Mexico City
    expect(afternoon).toMatch(/p\.\s?m\.$/);
    const sentence = endSentence(`Hecho el ${afternoon}`);
    expect(sentence).not.toMatch(/\.\.$/);
    expect(sentence.endsWith("m.")).toBe(true);
    expect(endSentence(`Recibida el ${formatDateTime("2026-03-02T15:00:00Z")}`)).toMatch(/a\.\s?m\.$/);
  });

  it("adds the period a sentence lacks, once", () => {
    expect(endSentence("Recibido el 2 de marzo de 2026")).toBe("Recibido el 2 de marzo de 2026.");
    expect(endSentence("¿Listo?")).toBe("¿Listo?");
    expect(endSentence("Hecho. ")).toBe("Hecho.");
  });
});

describe("formatFileSize", () => {
  it("shows small files in KB, never as 0 MB", () => {
    expect(formatFileSize(1_638)).toBe("2 KB"); // a 1.6 KB file
    expect(formatFileSize(200)).toBe("1 KB");
    expect(formatFileSize(0)).toBe("0 KB");
    expect(formatFileSize(820 * 1024)).toBe("820 KB");
    expect(formatFileSize(1_048_100)).toBe("1 MB"); // 1,023.5 KB: a megabyte, not "1,024 KB"
  });

  it("shows larger files in MB with one decimal at most", () => {
    expect(formatFileSize(1024 * 1024)).toBe("1 MB");
    expect(formatFileSize(3.4 * 1024 * 1024)).toBe("3.4 MB");
    expect(formatFileSize(25 * 1024 * 1024)).toBe("25 MB");
  });
});

describe("shortFileName", () => {
  it("keeps short names, cuts long ones in the middle and keeps the extension", () => {
    expect(shortFileName("pieza.step")).toBe("pieza.step");
    const long = `${"a".repeat(150)}-fin.step`;
    const short = shortFileName(long, 60);
    expect(Array.from(short)).toHaveLength(60);
    expect(short.startsWith("aaaa")).toBe(true);
    expect(short.endsWith("-fin.step")).toBe(true);
    expect(short).toContain("…");
    // Whole characters only (no half of a surrogate pair), and no extension invented for a name without one.
    const emoji = shortFileName("🔩".repeat(100), 11);
    expect(Array.from(emoji)).toEqual([..."🔩".repeat(5), "…", ..."🔩".repeat(5)]);
  });

  it("drops bidi overrides and control characters, so the extension cannot be faked", () => {
    expect(visibleFileName("factura\u202Efdp.exe")).toBe("facturafdp.exe");
    expect(shortFileName("a\u0000b\u2067c\u2069.pdf")).toBe("abc.pdf");
  });
});

describe("clipFileName", () => {
  it("clips to whole characters and keeps the extension", () => {
    expect(clipFileName("pieza.step", 255)).toBe("pieza.step");
    const clipped = clipFileName(`${"ñ".repeat(300)}.step`, 255);
    expect(Array.from(clipped)).toHaveLength(255);
    expect(clipped.endsWith("ñ.step")).toBe(true);
    expect(clipFileName("🔩".repeat(10), 3)).toBe("🔩🔩🔩");
  });
});

describe("atTime", () => {
  it("gives one o'clock «la» and every other hour «las»", () => {
    const time = new Intl.DateTimeFormat("es-MX", { timeStyle: "short", timeZone: "America/Mexico_City" });
    expect(atTime("a", time.format(new Date("2026-03-02T19:05:00Z")))).toMatch(/^a la 1:05\sp\.\s?m\.$/);
    expect(atTime("desde", time.format(new Date("2026-03-02T07:05:00Z")))).toMatch(/^desde la 1:05\sa\.\s?m\.$/);
    expect(atTime("a", time.format(new Date("2026-03-02T20:30:00Z")))).toMatch(/^a las 2:30\sp\.\s?m\.$/);
    expect(atTime("desde", time.format(new Date("2026-03-02T18:00:00Z")))).toMatch(/^desde las 12:00\sp\.\s?m\.$/);
    expect(atTime("a", "11:15 a.m.")).toBe("a las 11:15 a.m.");
  });
});

describe("formatCount", () => {
  it("puts the noun in the number the count asks for, the count grouped as es-MX writes it", () => {
    expect(formatCount(1, "intento", "intentos")).toBe("1 intento");
    expect(formatCount(0, "intento", "intentos")).toBe("0 intentos");
    expect(formatCount(3, "día", "días")).toBe("3 días");
    expect(formatCount(1500, "archivo", "archivos")).toBe("1,500 archivos");
    expect(formatWorkingDays(1)).toBe("1 día hábil");
    expect(formatWorkingDays(10)).toBe("10 días hábiles");
  });
});
