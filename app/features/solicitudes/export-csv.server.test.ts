import { describe, expect, it, vi } from "vitest";

// The CSV export of the staff list: encoding, escaping, filters and keyset batches.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-csv"));

import { getDb } from "~/db/client.server";
import { solicitudes } from "~/db/schema/solicitudes";
import { csvField, solicitudesCsvFileName, streamSolicitudesCsv } from "./export-csv.server";
import { listSolicitudes } from "./list.server";
import { parseCsv } from "../../../tests/support/csv";
import { aSolicitud, insertSolicitudes as insert, readAll, solicitudFilters as filters, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

useSolicitudTestDatabase(dataDir);

describe("streamSolicitudesCsv", () => {
  it("starts with the UTF-8 BOM and a Spanish header, and escapes fields per RFC 4180", async () => {
    await insert({
      number: "SOL-2026-0001",
      name: 'Ana "La Ingeniera" Gómez',
      company: "Maquinados, S.A. de C.V.",
      email: "ana@ejemplo.mx",
      industry: "aeroespacial",
      description: "Primera línea\r\nsegunda línea, con coma",
      certificates: ["rohs", "reach"],
      threads: false,
      createdAt: new Date("2026-03-10T05:30:00Z"),
    });
    const { bytes, text } = await readAll(streamSolicitudesCsv(filters()));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(text.slice(1));
    expect(rows[0].slice(0, 8)).toEqual(["Número", "Tipo", "Fecha (hora de la Ciudad de México)", "Estado", "Leído", "Nombre", "Empresa", "Correo"]);
    expect(rows).toHaveLength(2);
    const record = Object.fromEntries(rows[0].map((header, index) => [header, rows[1][index]]));
    expect(record).toMatchObject({
      Número: "SOL-2026-0001",
      Tipo: "Solicitud de cotización",
      // 05:30 UTC is still the evening before in Mexico City.
      "Fecha (hora de la Ciudad de México)": "2026-03-09 23:30",
      Estado: "Nuevo",
      Leído: "No",
      Nombre: 'Ana "La Ingeniera" Gómez',
      Empresa: "Maquinados, S.A. de C.V.",
      Industria: "Aeroespacial",
      Descripción: "Primera línea\r\nsegunda línea, con coma",
      Certificados: "RoHS, REACH",
      Roscas: "No",
    });
    expect(text).toContain('"Ana ""La Ingeniera"" Gómez"');
    expect(text.endsWith("\r\n")).toBe(true);
  });

  it("neutralises spreadsheet formulas by prefixing an apostrophe", async () => {
    await insert({ name: "=HYPERLINK(\"http://x\",\"clic\")", company: "+52 442 000 0000", email: "@evil.mx", city: "-1+1", material: "Acero=bueno" });
    const rows = parseCsv((await readAll(streamSolicitudesCsv(filters()))).text.slice(1));
    const record = Object.fromEntries(rows[0].map((header, index) => [header, rows[1][index]]));
    expect(record.Nombre).toBe("'=HYPERLINK(\"http://x\",\"clic\")");
    expect(record.Empresa).toBe("'+52 442 000 0000");
    expect(record.Correo).toBe("'@evil.mx");
    expect(record["Ciudad o estado"]).toBe("'-1+1");
    expect(record.Material).toBe("Acero=bueno");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("normal")).toBe("normal");
    expect(csvField("")).toBe("");
  });

  it("neutralises formulas hidden behind invisible characters, full-width forms and separators", () => {
    const guarded = [
      ";=1+1",
      "\uFF1D1+1", // full-width ＝
      "\u200B=1+1", // zero-width space
      "\uFEFF=1+1", // BOM
      "\u2060\u00A0 @SUM(A1)", // word joiner, no-break space, space
      "\u3000+52", // ideographic space
      "\uFF0B52", // full-width ＋
      "\uFF20evil", // full-width ＠
      "\r=1",
      "nota\n=1+1",
      "nota\r\n\u200B-2",
      "a,=1",
      "a, \u200D@b",
      "a;\t=1",
    ];
    for (const value of guarded) {
      const field = csvField(value);
      const unquoted = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
      expect(unquoted, JSON.stringify(value)).toBe(`'${value}`);
    }
    // A field with a semicolon is quoted, so semicolon-delimited imports keep it whole.
    expect(csvField(";=1+1")).toBe(`"';=1+1"`);
    expect(csvField("\uFF1D1+1")).toBe("'\uFF1D1+1");
    // Ordinary text is left alone, including a formula character after a visible one.
    for (const value of ["Acero=bueno", "Primera línea\r\nsegunda", "3-5 días", "correo@ejemplo.mx", "a; b", "100, 200", "Maquinados, S.A. de C.V."]) {
      expect(csvField(value).replace(/^"|"$/g, "").startsWith("'"), JSON.stringify(value)).toBe(false);
    }
  });

  it("writes the numbers Forja computes as numbers and guards a user's negative-looking text", async () => {
    await insert({ number: "SOL-2026-0900", quantity: -3, city: "-3", description: "Medidas:\n-5 mm" });
    const rows = parseCsv((await readAll(streamSolicitudesCsv(filters()))).text.slice(1));
    const record = Object.fromEntries(rows[0].map((header, index) => [header, rows.find((row) => row[0] === "SOL-2026-0900")![index]]));
    expect(record.Cantidad).toBe("-3");
    expect(record.Archivos).toBe("0");
    expect(record["Ciudad o estado"]).toBe("'-3");
    expect(record["Descripción"]).toBe("'Medidas:\n-5 mm");
  });

  it("exports only the current filter, ignoring the page", async () => {
    await insert({ number: "C-1", type: "contacto" }, { number: "C-2", type: "cotizacion" }, { number: "C-3", type: "contacto" });
    const rows = parseCsv((await readAll(streamSolicitudesCsv(filters("tipo=contacto&pagina=5&porPagina=1")))).text.slice(1));
    expect(rows.slice(1).map((row) => row[0]).sort()).toEqual(["C-1", "C-3"]);
  });

  it("streams more than 1,000 rows in batches of 500, each row exactly once, even with equal timestamps", async () => {
    // Three rows per instant, in the same microsecond: only the id tells them apart.
    const rows = Array.from({ length: 1203 }, (_, index) =>
      aSolicitud({ createdAt: new Date(Date.UTC(2026, 2, 10, 12, 0, 0, Math.floor(index / 3))) }),
    );
    for (let start = 0; start < rows.length; start += 400) await getDb().insert(solicitudes).values(rows.slice(start, start + 400));
    const { text, chunks } = await readAll(streamSolicitudesCsv(filters()));
    const numbers = parseCsv(text.slice(1)).slice(1).map((row) => row[0]);
    expect(numbers).toHaveLength(1203);
    expect(new Set(numbers).size).toBe(1203);
    // Header chunk, then one chunk per batch: 500 + 500 + 203.
    expect(chunks).toHaveLength(4);
    expect(chunks.slice(1).map((chunk) => parseCsv(new TextDecoder().decode(chunk)).length)).toEqual([500, 500, 203]);
    // Same order as the list.
    const firstPage = await listSolicitudes(filters("porPagina=500"));
    expect(numbers.slice(0, 500)).toEqual(firstPage.rows.map((row) => row.number));
  });

  it("pages with microsecond timestamps and mixed sort directions without skipping or repeating", async () => {
    const statuses = ["nuevo", "en_revision", "cotizado", "cerrado", "descartado"] as const;
    await insert(...Array.from({ length: 37 }, (_, index) => ({ status: statuses[index % 5] })));
    // Same microsecond-precision now() for all: ties again broken by id.
    for (const query of ["orden=estado", "orden=estado&dir=desc", "dir=asc", ""]) {
      const expected = (await listSolicitudes(filters(`${query}&porPagina=500`))).rows.map((row) => row.number);
      const exported = parseCsv((await readAll(streamSolicitudesCsv(filters(query), { batchSize: 4 }))).text.slice(1))
        .slice(1)
        .map((row) => row[0]);
      expect(exported).toEqual(expected);
    }
  });

  it("names the file after the Mexico City date", () => {
    expect(solicitudesCsvFileName(new Date("2026-03-11T03:00:00Z"))).toBe("solicitudes-2026-03-10.csv");
  });
});
