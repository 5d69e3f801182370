import { describe, expect, it } from "vitest";
import { isReservedPath, normalizePath, parseRoutePaths } from "./reserved-paths.server";

// The site's own addresses, read from app/routes.ts: a content record may not take them.

describe("isReservedPath", () => {
  it("reserves every first segment of the route table and the server's own paths, whatever the case", () => {
    for (const path of ["/cotiza", "/Catalogo", "/admin", "/api", "/login", "/faqs", "/industrias-design", "/quotes", "/assets", "/sitemap.xml", "/"]) {
      expect(isReservedPath(path), path).toBe(true);
    }
  });

  it("leaves free the addresses only a parameter matches", () => {
    for (const path of ["/garantia", "/aviso-de-privacidad", "/industrias-design/mineria", "/cotiza/otra-cosa"]) {
      expect(isReservedPath(path), path).toBe(false);
    }
    expect(isReservedPath("/cotiza/enviada")).toBe(true);
  });

  it("parses route() calls, skipping parameters and splats", () => {
    const parsed = parseRoutePaths(`route("a/b", "x.tsx"), route(":slug", "y.tsx"), route("*", "z.tsx"), route("c/:id", "w.tsx")`);
    expect([...parsed.topSegments]).toEqual(expect.arrayContaining(["a", "c"]));
    expect(parsed.topSegments.has(":slug")).toBe(false);
    expect(parsed.staticPaths.has("/a/b")).toBe(true);
    expect(parsed.staticPaths.has("/c/:id")).toBe(false);
  });
});

describe("normalizePath", () => {
  it("keeps the pathname only, lowercased, without a trailing slash", () => {
    expect(normalizePath("/Nosotros/?a=1#equipo")).toBe("/nosotros");
    expect(normalizePath("industrias-design/Mineria")).toBe("/industrias-design/mineria");
  });
});
