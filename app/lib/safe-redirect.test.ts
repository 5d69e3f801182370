import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/quotes", "/quotes"],
    ["/quotes/1?tab=mensajes#fin", "/quotes/1?tab=mensajes#fin"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["quotes", "/"],
    ["/ok\r\nSet-Cookie: x=1", "/"],
    [null, "/"],
    [undefined, "/"],
  ])("%s → %s", (value, expected) => {
    expect(safeRedirect(value as string | null | undefined)).toBe(expected);
  });

  it("uses the fallback given", () => {
    expect(safeRedirect("//x", "/cuenta")).toBe("/cuenta");
  });
});
