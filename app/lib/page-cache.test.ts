import { describe, expect, it } from "vitest";
import { FORM_PAGE_RENEW_MS, liveDataPageHandle, pageCachePolicy, publicFormPageHandle, publicPageHandle } from "./page-cache";

describe("pageCachePolicy", () => {
  it("keeps build pages per build and catalogue pages while their data is unchanged", () => {
    expect(pageCachePolicy(publicPageHandle)).toEqual({ liveData: null });
    expect(pageCachePolicy(liveDataPageHandle("catalogo"))).toEqual({ liveData: ["catalogo"] });
    expect(pageCachePolicy(liveDataPageHandle("contenido:preguntas"))).toEqual({ liveData: ["contenido:preguntas"] });
    expect(pageCachePolicy(liveDataPageHandle("contenido:servicios", "catalogo", "contenido:servicios"))).toEqual({
      liveData: ["contenido:servicios", "catalogo"],
    });
    expect(pageCachePolicy({ publicCache: true, liveData: "otro" })).toBeNull();
    expect(pageCachePolicy({ publicCache: true, liveData: "catalogo" }), "a bare string is not a list").toBeNull();
  });

  it("renders every request for anything else, including a topic it does not know", () => {
    for (const handle of [undefined, null, "publicCache", {}, { publicCache: "true" }, { publicCache: false, liveData: "catalogo" }]) {
      expect(pageCachePolicy(handle), JSON.stringify(handle)).toBeNull();
    }
    // An unknown topic would never be invalidated: it must not be cached as a build page either.
    expect(pageCachePolicy({ publicCache: true, liveData: ["pedidos"] })).toBeNull();
    expect(pageCachePolicy({ publicCache: true, liveData: ["catalogo", "contenido:"] })).toBeNull();
    expect(pageCachePolicy({ publicCache: true, liveData: [] }), "a live page follows something").toBeNull();
    // "contenido" alone would re-render every content page on any publish: pages name their collections.
    expect(pageCachePolicy({ publicCache: true, liveData: ["contenido"] })).toBeNull();
  });

  it("renews form pages every hour (their token's age stays bounded); a malformed period means no caching", () => {
    expect(FORM_PAGE_RENEW_MS).toBe(60 * 60 * 1000);
    expect(pageCachePolicy(publicFormPageHandle)).toEqual({ liveData: null, renewAfterMs: FORM_PAGE_RENEW_MS });
    for (const renewAfterMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "3600000", null]) {
      expect(pageCachePolicy({ publicCache: true, renewAfterMs }), String(renewAfterMs)).toBeNull();
    }
    // Live pages renew on data changes, not by time.
    expect(pageCachePolicy({ publicCache: true, liveData: ["catalogo"], renewAfterMs: 1_000 })).toBeNull();
  });
});
