// The site's own addresses, which no content record may take (a page with the slug "cotiza" would
// hide the quote form). Read from the route table, app/routes.ts, as text: inlined at build time,
// so a new route is reserved without editing this file and no router code is loaded.

const sources = import.meta.glob<string>("../../routes.ts", { eager: true, query: "?raw", import: "default" });

/** Served by the server itself, outside the route table (built assets, the router's manifest, public/). */
const SERVER_PATHS = ["assets", "__manifest", "favicon.svg", "favicon.png", "favicon.ico", "version.json"];

interface ReservedPaths {
  /** First segments of every route ("cotiza", "admin", "api", "industrias-design", …), lowercased. */
  topSegments: Set<string>;
  /** Whole static routes ("/cotiza/enviada", "/admin/productos"), lowercased. */
  staticPaths: Set<string>;
}

let reserved: ReservedPaths | undefined;

/** The route table's paths, parsed once. Exported for its test. */
export function parseRoutePaths(source: string): ReservedPaths {
  const topSegments = new Set(SERVER_PATHS);
  const staticPaths = new Set(SERVER_PATHS.map((segment) => `/${segment}`));
  for (const match of source.matchAll(/\broute\(\s*["'`]([^"'`]*)["'`]/g)) {
    const segments = match[1]!.toLowerCase().split("/").filter(Boolean);
    const isStatic = (segment: string) => !segment.startsWith(":") && !segment.startsWith("*");
    if (segments[0] && isStatic(segments[0])) topSegments.add(segments[0]);
    if (segments.length > 0 && segments.every(isStatic)) staticPaths.add(`/${segments.join("/")}`);
  }
  return { topSegments, staticPaths };
}

function reservedPaths(): ReservedPaths {
  if (!reserved) {
    const source = Object.values(sources)[0];
    if (!source) throw new Error("app/routes.ts not found: the content store cannot tell which addresses are the site's own");
    reserved = parseRoutePaths(source);
  }
  return reserved;
}

/** The pathname of an address, lowercased, without query, fragment or trailing slash: "/Nosotros/?a#b" → "/nosotros". */
export function normalizePath(address: string): string {
  const pathname = address.split(/[?#]/)[0]!.trim().toLowerCase();
  const segments = pathname.split("/").filter(Boolean);
  return `/${segments.join("/")}`;
}

/** Whether the address is one of the site's own routes: "/cotiza", "/admin", "/cotiza/enviada" (not "/industrias-design/minería"). */
export function isReservedPath(address: string): boolean {
  const path = normalizePath(address);
  const segments = path.split("/").filter(Boolean);
  if (segments.length === 0) return true;
  const { topSegments, staticPaths } = reservedPaths();
  return segments.length === 1 ? topSegments.has(segments[0]!) : staticPaths.has(path);
}
