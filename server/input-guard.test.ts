import { describe, expect, it } from "vitest";
import { isReadableAddress } from "./input-guard";

// The addresses the server refuses before anything reads them (docs/decisions/0035).

describe("isReadableAddress", () => {
  it("lets through every address a person or a client library sends", () => {
    for (const url of ["/", "/catalogo?q=brida", "/catalogo?q=brida+de+aluminio&page=2", "/catalogo/m%C3%A9nsula", "/login?redirectTo=%2Fcuenta%3Fx%3D1", "/api/collections/productos/records?filter=(name~%27brida%27)", "/a?b", "/a?=&&c="]) {
      expect(isReadableAddress(url), url).toBe(true);
    }
  });

  it("refuses NUL and other control characters, broken percent-encoding and bytes that are not UTF-8", () => {
    for (const url of ["/%00", "/catalogo/%00", "/catalogo?q=brida%00", "/admin/formularios?q=%00", "/a?%00=1", "/%ff", "/catalogo?q=%c3%28", "/a?q=%", "/a?q=%zz", "/a%e0%80%80", "/a?q=%01"]) {
      expect(isReadableAddress(url), url).toBe(false);
    }
  });
});
