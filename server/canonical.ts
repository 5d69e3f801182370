import type { ServerBuild } from "react-router";

/** Lowercase names of every static path segment in the route table ("industrias-design", "admin", …). */
export function staticSegments(routes: ServerBuild["routes"]): Set<string> {
  const segments = new Set<string>();
  for (const route of Object.values(routes)) {
    for (const segment of (route?.path ?? "").split("/")) {
      if (segment && !segment.startsWith(":") && !segment.startsWith("*")) segments.add(segment.toLowerCase());
    }
  }
  return segments;
}

/**
 * Route parameters that are lowercase slugs (industries, products, content pages): a path made only
 * of static segments and these is case-insensitive as a whole, so its canonical form is all lowercase.
 * Every other parameter keeps its case: ids and tokens (quotes, admin records, images, files, CAD
 * fingerprints), order numbers (PED-2026-0001), OAuth providers; and nothing under /api is touched.
 */
const SLUG_PARAMS = new Set(["industry", "slug"]);

/** A route's full path: each segment lowercased, ":" for a parameter, "*" for a splat. */
interface RoutePattern {
  segments: string[];
  /** Only static segments and slugs, outside /api: the whole path is lowercased. */
  lowercase: boolean;
}

/** What the canonical redirect knows of the route table. */
export interface CanonicalRoutes {
  /** Static segments, lowercased: used for paths no route matches (they end in the 404 page). */
  segments: Set<string>;
  patterns: RoutePattern[];
}

function fullPath(routes: ServerBuild["routes"], id: string): string[] {
  const parts: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    parts.unshift(...(route.path ?? "").split("/").filter(Boolean));
  }
  return parts;
}

export function canonicalRoutes(routes: ServerBuild["routes"]): CanonicalRoutes {
  const patterns: RoutePattern[] = [];
  for (const [id, route] of Object.entries(routes)) {
    if (!route?.path) continue;
    const parts = fullPath(routes, id);
    // The site's catch-all 404 matches everything; it says nothing about case.
    if (parts.length === 0 || (parts.length === 1 && parts[0] === "*")) continue;
    const params = parts.filter((part) => part.startsWith(":")).map((part) => part.slice(1).replace(/\?$/, ""));
    const lowercase = parts[0]!.toLowerCase() !== "api" && !parts.some((part) => part.startsWith("*")) && params.every((name) => SLUG_PARAMS.has(name));
    patterns.push({ segments: parts.map((part) => (part.startsWith(":") ? ":" : part.startsWith("*") ? "*" : part.toLowerCase())), lowercase });
  }
  return { segments: staticSegments(routes), patterns };
}

/** How well a pattern matches the path (static segments count more than parameters, as in the router), or -1. */
function score(pattern: string[], parts: string[]): number {
  const splat = pattern.at(-1) === "*";
  const fixed = splat ? pattern.slice(0, -1) : pattern;
  if (splat ? parts.length < fixed.length : parts.length !== fixed.length) return -1;
  let total = 0;
  for (const [index, segment] of fixed.entries()) {
    if (segment === ":") total += 1;
    else if (segment === parts[index]!.toLowerCase()) total += 10;
    else return -1;
  }
  return total;
}

/**
 * The canonical form of a path, or null when it already is canonical: repeated and trailing
 * slashes removed, static segments lowercased, and the whole path lowercased when it is a public
 * page addressed by slugs (/INDUSTRIAS-DESIGN/Medica/ → /industrias-design/medica). Parameters whose
 * case matters keep it (/quotes/AbC, /checkout/confirmacion/PED-2026-0001, /api/files/…).
 */
export function canonicalPath(pathname: string, routes: CanonicalRoutes): string | null {
  // Backslashes count as separators: browsers read "/\\host" as "//host".
  const parts = pathname.split(/[\\/]+/).filter(Boolean);
  let best: RoutePattern | undefined;
  let bestScore = -1;
  for (const pattern of routes.patterns) {
    const value = score(pattern.segments, parts);
    if (value > bestScore) [best, bestScore] = [pattern, value];
  }
  const canonical =
    "/" +
    parts
      .map((part, index) => {
        const lower = part.toLowerCase();
        if (!best) return routes.segments.has(lower) ? lower : part;
        const segment = best.segments[index] ?? "*";
        return best.lowercase || (segment !== ":" && segment !== "*") ? lower : part;
      })
      .join("/");
  return canonical === pathname ? null : canonical;
}

/** Requests the canonical redirect leaves alone: assets, router data and manifest requests. */
export function isExemptFromCanonical(pathname: string): boolean {
  return pathname.startsWith("/assets/") || pathname.startsWith("/__manifest") || pathname.endsWith(".data");
}
