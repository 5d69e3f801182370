import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isoDayField, optionalEnumField, pageField, perPageField, searchField } from "./list-fields";
import { pageCount, parseListParams, positiveInt, searchText } from "./list-params";

describe("positiveInt", () => {
  it("reads whole numbers and falls back on anything else", () => {
    expect(positiveInt("7", 1)).toBe(7);
    expect(positiveInt(" 7 ", 1)).toBe(7);
    for (const bad of [null, undefined, "", "abc", "0", "-3", "2.5", "1e3", "9".repeat(30)]) expect(positiveInt(bad, 1)).toBe(1);
    expect(positiveInt("900", 1, 500)).toBe(500);
  });
});

describe("parseListParams", () => {
  it("reads the Spanish names with defaults, clamps and an offset", () => {
    const params = new URLSearchParams("pagina=3&porPagina=9999&orden=estado&dir=asc");
    expect(parseListParams(params, { perPage: { default: 30, max: 500 }, sorts: ["fecha", "estado"], defaultSort: "fecha" })).toEqual({
      page: 3,
      perPage: 500,
      sort: "estado",
      dir: "asc",
      offset: 1000,
    });
  });

  it("drops unknown sorts and directions", () => {
    const parsed = parseListParams(new URLSearchParams("orden=drop table&dir=up&pagina=x"), { sorts: ["fecha"], defaultSort: "fecha" });
    expect(parsed).toMatchObject({ page: 1, perPage: 30, sort: "fecha", dir: undefined, offset: 0 });
  });

  it("reads other names (the record API's)", () => {
    const parsed = parseListParams(new URLSearchParams("page=2&perPage=50"), { names: { page: "page", perPage: "perPage", sort: "sort", dir: "dir" } });
    expect(parsed).toMatchObject({ page: 2, perPage: 50, offset: 50 });
  });

  it("counts pages, at least one", () => {
    expect(pageCount(0, 30)).toBe(1);
    expect(pageCount(61, 30)).toBe(3);
  });
});

describe("zod fields for filter schemas", () => {
  const Filters = z.object({
    pagina: pageField(),
    porPagina: perPageField({ default: 30, max: 500 }),
    desde: isoDayField,
    q: searchField(10),
    estado: optionalEnumField(["nuevo", "cerrado"] as const),
  });

  it("never fails on a stale or tampered link", () => {
    expect(Filters.parse({ pagina: "-1", porPagina: "0", desde: "2026-02-30", q: "   ", estado: "borrado" })).toEqual({
      pagina: 1,
      porPagina: 1,
      desde: undefined,
      q: undefined,
      estado: undefined,
    });
    expect(Filters.parse({})).toEqual({ pagina: 1, porPagina: 30, desde: undefined, q: undefined, estado: undefined });
  });

  it("keeps good values", () => {
    expect(Filters.parse({ pagina: "4", porPagina: "50", desde: "2026-02-28", q: "  brida   acero inoxidable ", estado: "nuevo" })).toEqual({
      pagina: 4,
      porPagina: 50,
      desde: "2026-02-28",
      q: "brida acer",
      estado: "nuevo",
    });
    expect(searchText("a  b")).toBe("a b");
  });
});
