// The first segments of the site's own addresses (app/routes.ts, and what the server answers before
// the router), which a `paginas` slug may not take: a page at /cotiza would hide the quote form.
// Written out so the editor can check a slug in the browser without loading the route table;
// reserved-paths.test.ts fails when app/routes.ts gains a path that is missing here.

/** Pages with a route of their own that shows the `paginas` record of the same slug (its layout, the record's words). */
export const PAGE_ROUTES = ["about"] as const;

/** Top-level paths of app/routes.ts that are not content pages, and the server's own. */
export const RESERVED_PATHS: readonly string[] = [
  // app/routes.ts
  "__error",
  "admin",
  "api",
  "auth",
  "carrito",
  "catalogo",
  "checkout",
  "connect",
  "contact",
  "cotiza",
  "cuenta",
  "faqs",
  "imagenes",
  "industrias",
  "industrias-design",
  "login",
  "medios",
  "quotes",
  "recuperar",
  "registro",
  "robots.txt",
  "salir",
  "servicios",
  "sitemap.xml",
  "vista-cliente",
  // server/app.ts: built assets, the router's manifest, public/
  "__manifest",
  "assets",
  "favicon.png",
  "favicon.svg",
  "version.json",
];

const reserved = new Set(RESERVED_PATHS);

/** Whether a slug would take one of the site's own addresses (case-insensitive, as pages are matched). */
export function isReservedSlug(slug: string): boolean {
  return reserved.has(slug.trim().toLowerCase());
}
