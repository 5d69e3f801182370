import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { canonicalPath, canonicalRoutes, isExemptFromCanonical, staticSegments } from "./canonical";

/** The app's real route table, flattened the way the server build lists it (paths relative to the parent). */
function serverRoutes(entries: RouteConfigEntry[], parentId = "root", out: ServerBuild["routes"] = {}): ServerBuild["routes"] {
  for (const entry of entries) {
    const id = entry.id ?? entry.file.replace(/\.tsx?$/, "");
    out[id] = { id, parentId, path: entry.path, index: entry.index, module: {} } as unknown as ServerBuild["routes"][string];
    if (entry.children) serverRoutes(entry.children, id, out);
  }
  out.root = { id: "root", path: "", module: {} } as unknown as ServerBuild["routes"][string];
  return out;
}

const appRoutes = serverRoutes(routeConfig);
const segments = staticSegments(appRoutes);
const routes = canonicalRoutes(appRoutes);

describe("staticSegments", () => {
  it("collects every static segment of the app's routes, lowercased", () => {
    for (const name of ["about", "contact", "cotiza", "faqs", "catalogo", "checkout", "servicios", "industrias", "industrias-design", "login", "quotes", "admin", "formularios", "api", "health", "sitemap.xml", "robots.txt", "__error"]) {
      expect(segments, name).toContain(name);
    }
  });

  it("leaves out dynamic and splat segments and empty paths", () => {
    for (const segment of segments) {
      expect(segment).not.toMatch(/^[:*]/);
      expect(segment).not.toBe("");
      expect(segment).toBe(segment.toLowerCase());
    }
    expect(segments).not.toContain("industry");
    expect(segments).not.toContain("slug");
    expect(segments).not.toContain("id");
  });

  it("lowercases mixed-case route paths and tolerates routes without a path", () => {
    const routes = {
      a: { id: "a", path: "Mis-Pedidos/:Id/Detalle" },
      b: { id: "b", index: true },
      c: { id: "c", path: "*" },
      d: undefined,
    } as unknown as ServerBuild["routes"];
    expect([...staticSegments(routes)].sort()).toEqual(["detalle", "mis-pedidos"]);
  });
});

describe("canonicalPath", () => {
  const cases: [input: string, expected: string | null][] = [
    // Already canonical.
    ["/", null],
    ["/about", null],
    ["/industrias-design/medica", null],
    ["/admin/formularios", null],
    ["/sitemap.xml", null],
    // Trailing and repeated slashes.
    ["/about/", "/about"],
    ["/about///", "/about"],
    ["//about", "/about"],
    ["/admin//formularios", "/admin/formularios"],
    ["//", "/"],
    ["///", "/"],
    // Never protocol-relative: //host would send the browser to another site.
    ["//evil.com/", "/evil.com"],
    ["//evil.com", "/evil.com"],
    ["///evil.com//x", "/evil.com/x"],
    // Static segments lowercased.
    ["/About", "/about"],
    ["/ABOUT/", "/about"],
    ["/Admin/Formularios", "/admin/formularios"],
    ["/Sitemap.XML", "/sitemap.xml"],
    ["/API/Health", "/api/health"],
    // Public pages addressed by slugs are case-insensitive as a whole: one 301 to all lowercase.
    ["/INDUSTRIAS-DESIGN/Medica/", "/industrias-design/medica"],
    ["/industrias-design/Medica/", "/industrias-design/medica"],
    ["/Industrias-Design/Medica", "/industrias-design/medica"],
    ["/industrias-design/MEDICA", "/industrias-design/medica"],
    ["/Aviso-De-Privacidad", "/aviso-de-privacidad"],
    ["/Aviso-De-Privacidad/", "/aviso-de-privacidad"],
    ["/Catalogo/Brida-Slip-On-2-In", "/catalogo/brida-slip-on-2-in"],
    ["/catalogo/brida-slip-on-2-in", null],
    // Parameters whose case matters keep it: ids, tokens, order numbers, CAD fingerprints, files.
    ["/quotes/AbC", null],
    ["/Quotes/AbC", "/quotes/AbC"],
    ["/quotes/AbC/", "/quotes/AbC"],
    ["/quotes/AbC/PDF", "/quotes/AbC/pdf"],
    ["/checkout/confirmacion/PED-2026-0001", null],
    ["/Checkout/Confirmacion/PED-2026-0001", "/checkout/confirmacion/PED-2026-0001"],
    ["/admin/formularios/AbC/archivos/XyZ", null],
    ["/catalogo/brida/cad/AbC123/Brida.STEP", null],
    ["/Catalogo/Brida/CAD/AbC123/Brida.STEP", "/catalogo/Brida/cad/AbC123/Brida.STEP"],
    ["/imagenes/productos/AbC/640.webp", null],
    ["/Imagenes/Productos/AbC/640.webp", "/imagenes/productos/AbC/640.webp"],
    ["/connect/GitHub", null],
    // The API: only its static segments.
    ["/api/files/Posts/AbC/Plano.PDF", null],
    ["/api/collections/Users/records/AbC", null],
    ["/api/auth/Local", null],
    ["/API/Auth/Local", "/api/auth/Local"],
    // A parameter that happens to spell a static word is still a parameter.
    ["/quotes/Admin", null],
    ["/api/files/Posts/AbC/Health", null],
  ];

  it.each(cases)("%s → %s", (input, expected) => {
    expect(canonicalPath(input, routes)).toBe(expected);
  });

  it("always returns a single-slash absolute path", () => {
    for (const [input] of cases) {
      const target = canonicalPath(input, routes);
      if (target === null) continue;
      expect(target.startsWith("/")).toBe(true);
      expect(target.startsWith("//")).toBe(false);
      expect(target).not.toMatch(/\/\//);
      expect(target === "/" || !target.endsWith("/")).toBe(true);
    }
  });

  it("is idempotent: a canonical result needs no further redirect", () => {
    for (const [input] of cases) {
      const target = canonicalPath(input, routes) ?? input;
      expect(canonicalPath(target, routes)).toBeNull();
    }
  });
});

describe("canonicalRoutes", () => {
  it("lowercases whole paths only for public pages addressed by static segments and slugs", () => {
    const lowercase = routes.patterns.filter((pattern) => pattern.lowercase).map((pattern) => pattern.segments.join("/"));
    const keepCase = routes.patterns.filter((pattern) => !pattern.lowercase).map((pattern) => pattern.segments.join("/"));
    expect(lowercase).toEqual(expect.arrayContaining(["industrias-design/:", "catalogo/:", ":", "about", "admin/formularios"]));
    expect(keepCase).toEqual(
      expect.arrayContaining(["quotes/:", "quotes/:/pdf", "checkout/confirmacion/:", "admin/formularios/:", "imagenes/productos/:/:", "catalogo/:/cad/:/:", "api/health", "api/auth/*", "api/files/:/:/:"]),
    );
    expect(keepCase.filter((pattern) => pattern.startsWith("api/") === false).every((pattern) => pattern.includes(":"))).toBe(true);
  });
});

describe("isExemptFromCanonical", () => {
  it.each([
    ["/assets/root-AbC123.js", true],
    ["/assets/Entry.Client-XyZ.css", true],
    ["/__manifest", true],
    ["/__manifest/", true],
    ["/_root.data", true],
    ["/Quotes/AbC.data", true],
    ["/", false],
    ["/About/", false],
    ["/assets", false],
    ["/Assets/x.js", false],
    ["/industrias-design/Medica", false],
  ])("%s → %s", (pathname, exempt) => {
    expect(isExemptFromCanonical(pathname)).toBe(exempt);
  });
});
