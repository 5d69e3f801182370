import { describe, expect, it } from "vitest";
import { parseSolicitudFilters } from "./filters";

// The URL of /admin/formularios → its filters: a shared link always opens.

const filters = (query = "") => parseSolicitudFilters(new URLSearchParams(query));

describe("SolicitudFiltersSchema", () => {
  it("defaults to page 1, 30 per page, newest first, with the total", () => {
    expect(filters()).toEqual({
      page: 1,
      perPage: 30,
      sort: "fecha",
      dir: "desc",
      type: undefined,
      status: undefined,
      industry: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
      skipTotal: false,
    });
  });

  it("reads every filter from the URL", () => {
    expect(
      filters("pagina=3&porPagina=100&orden=estado&dir=desc&tipo=contacto&estado=cotizado&industria=medica&desde=2026-01-01&hasta=2026-01-31&q=%20Tornillos%20&sinTotal=1"),
    ).toEqual({
      page: 3,
      perPage: 100,
      sort: "estado",
      dir: "desc",
      type: "contacto",
      status: "cotizado",
      industry: "medica",
      from: "2026-01-01",
      to: "2026-01-31",
      q: "Tornillos",
      skipTotal: true,
    });
    expect(filters("orden=estado").dir).toBe("asc");
  });

  it("clamps the page size to 500 and drops values it does not know, so a shared link always opens", () => {
    expect(filters("porPagina=1000").perPage).toBe(500);
    expect(filters("porPagina=0").perPage).toBe(1);
    expect(filters("porPagina=muchos").perPage).toBe(30);
    expect(filters("pagina=0").page).toBe(1);
    expect(filters("pagina=-4").page).toBe(1);
    expect(filters("pagina=abc").page).toBe(1);
    const junk = filters("orden=nombre&dir=arriba&tipo=spam&estado=borrado&industria=textil&desde=2026-02-30&hasta=ayer&q=%20%20&sinTotal=0");
    expect(junk).toMatchObject({ sort: "fecha", dir: "desc", type: undefined, status: undefined, industry: undefined, from: undefined, to: undefined, q: undefined, skipTotal: false });
  });

  it("treats the empty values of a submitted GET form as absent", () => {
    expect(filters("tipo=&estado=&industria=&desde=&hasta=&q=&porPagina=30")).toEqual(filters());
  });
});
