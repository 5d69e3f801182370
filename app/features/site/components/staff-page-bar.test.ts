import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_PAGE_ROUTES, pageEditorHref } from "./staff-page-bar";

// «Editar esta página» is offered on the routes that show content records (docs/decisions/0049):
// each id it names must be a page of app/routes.ts, or the link would silently never show there.

describe("CONTENT_PAGE_ROUTES", () => {
  it("names only routes of the site layout that exist", () => {
    const routes = fs.readFileSync(path.resolve("app/routes.ts"), "utf8");
    for (const id of CONTENT_PAGE_ROUTES) {
      expect(routes, id).toContain(`"${id}.tsx"`);
      expect(id.startsWith("routes/site/"), id).toBe(true);
    }
  });

  it("links to the panel with the page's path as its parameter", () => {
    expect(pageEditorHref("/industrias-design/médica")).toBe("/admin/contenido/ir?ruta=%2Findustrias-design%2Fm%C3%A9dica");
    expect(new URL(pageEditorHref("/faqs"), "http://localhost").searchParams.get("ruta")).toBe("/faqs");
  });
});
