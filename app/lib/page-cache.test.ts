import { describe, expect, it } from "vitest";
import { liveDataPageHandle, pageCachePolicy, publicPageHandle } from "./page-cache";

describe("pageCachePolicy", () => {
  it("keeps build pages per build and catalogue pages while their data is unchanged", () => {
    expect(pageCachePolicy(publicPageHandle)).toEqual({ liveData: null });
    expect(pageCachePolicy(liveDataPageHandle("catalogo"))).toEqual({ liveData: "catalogo" });
  });

  it("renders every request for anything else, including a topic it does not know", () => {
    for (const handle of [undefined, null, "publicCache", {}, { publicCache: "true" }, { publicCache: false, liveData: "catalogo" }]) {
      expect(pageCachePolicy(handle), JSON.stringify(handle)).toBeNull();
    }
    // An unknown topic would never be invalidated: it must not be cached as a build page either.
    expect(pageCachePolicy({ publicCache: true, liveData: "pedidos" })).toBeNull();
  });
});
