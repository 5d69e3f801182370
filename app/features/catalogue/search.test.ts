import { describe, expect, it } from "vitest";
import { stockStatus } from "./forms";
import { buildSearchDocument, normalizeSearchText, parseCatalogueQuery, parseStaffProductFilters, searchTokens, slugify } from "./search";

// The catalogue's search text and URL state, and the stock wording: plain functions, no database.

describe("search text", () => {
  it("normalizes to lowercase without accents or diacritics", () => {
    expect(normalizeSearchText("  Lámina   ROLADA Policarbonáto Ñandú ")).toBe("lamina rolada policarbonato nandu");
    expect(buildSearchDocument({ name: "Buje", sku: "FOR-BUJ-1", category: "Bujes y cojinetes", shortDescription: "Bronce", description: "Grafitádo" })).toContain("grafitado");
  });

  it("keeps plain words for prefixes: no excluded words, no operators, no punctuation", () => {
    expect(searchTokens(normalizeSearchText('brid "acero -inox" -laton or FOR-GAB'))).toEqual(["brid", "acero", "for", "gab"]);
  });

  it("reads the catalogue state from the URL and falls back on anything odd", () => {
    expect(parseCatalogueQuery(new URLSearchParams("q=%20buje%20&categoria=Bujes%20y%20cojinetes&orden=precio-desc&pagina=3"))).toEqual({
      q: "buje",
      category: "bujes-y-cojinetes",
      sort: "precio-desc",
      page: 3,
    });
    expect(parseCatalogueQuery(new URLSearchParams("orden=caro&pagina=-2"))).toMatchObject({ sort: "relevancia", page: 1 });
    expect(slugify("Guardas de policarbonato · 6 mm")).toBe("guardas-de-policarbonato-6-mm");
  });

  it("reads the staff list's filters from the URL with the shared page parser", () => {
    expect(parseStaffProductFilters(new URLSearchParams("q=%20brida%20%20slip%20&categoria=%20Bridas%20maquinadas%20&estado=inactivos&pagina=4"))).toEqual({
      q: "brida slip",
      category: "Bridas maquinadas",
      status: "inactivos",
      page: 4,
    });
    expect(parseStaffProductFilters(new URLSearchParams("estado=borrados&pagina=0"))).toEqual({ q: "", category: "", status: "todos", page: 1 });
    expect(parseStaffProductFilters(new URLSearchParams("pagina=abc")).page).toBe(1);
    expect(parseCatalogueQuery(new URLSearchParams(`q=${"a".repeat(200)}`)).q).toHaveLength(120);
  });

  it("words stock the way the issue asks", () => {
    expect(stockStatus(11, "pieza").label).toBe("En existencia");
    expect(stockStatus(10, "pieza").label).toBe("Últimas 10 piezas");
    expect(stockStatus(3, "juego").label).toBe("Últimos 3 juegos");
    expect(stockStatus(1, "pieza").label).toBe("Última pieza");
    expect(stockStatus(0, "pieza").label).toBe("Sobre pedido");
  });
});
