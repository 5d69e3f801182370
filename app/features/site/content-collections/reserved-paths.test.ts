import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { PaginaSchema } from "./paginas";
import { isReservedSlug, PAGE_ROUTES, RESERVED_PATHS } from "./reserved-paths";

interface RouteEntry {
  path?: string;
  children?: RouteEntry[];
}

/** The first segment of every static path in the route table: "cotiza", "admin", "industrias-design", … */
function topSegments(entries: readonly RouteEntry[]): string[] {
  return entries.flatMap((entry) => {
    const first = entry.path?.split("/").find(Boolean);
    const own = first && !first.startsWith(":") && first !== "*" ? [first] : [];
    return [...own, ...topSegments(entry.children ?? [])];
  });
}

describe("reserved paths", () => {
  it("are every top-level path of app/routes.ts that is not a content page, and the server's own", () => {
    const fromRoutes = new Set(topSegments(routes as RouteEntry[]));
    const server = ["__manifest", "assets", "favicon.png", "favicon.svg", "version.json"];
    expect([...RESERVED_PATHS].sort()).toEqual([...fromRoutes].filter((segment) => !(PAGE_ROUTES as readonly string[]).includes(segment)).concat(server).sort());
    for (const page of PAGE_ROUTES) expect(fromRoutes).toContain(page);
  });

  it("are refused as a page's slug, with a Spanish message", () => {
    expect(isReservedSlug("cotiza")).toBe(true);
    expect(isReservedSlug(" Catalogo ")).toBe(true);
    expect(isReservedSlug("nosotros")).toBe(false);
    const page = { slug: "cotiza", titulo: "Cotiza", descripcion: "Una página.", cuerpo: "" };
    const result = PaginaSchema.safeParse(page);
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((issue) => issue.path[0] === "slug")?.message).toBe("La dirección /cotiza ya es una página del sitio; elija otra.");
    expect(result.error?.issues.find((issue) => issue.path[0] === "cuerpo")?.message).toBe("Escriba el contenido de la página.");
  });
});
