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
 * The canonical form of a path, or null when it already is canonical: repeated and trailing
 * slashes removed, static segments lowercased. Dynamic segments keep their case (ids, slugs).
 */
export function canonicalPath(pathname: string, segments: Set<string>): string | null {
  // Backslashes count as separators: browsers read "/\\host" as "//host".
  const parts = pathname.split(/[\\/]+/).filter(Boolean);
  const canonical =
    "/" +
    parts
      .map((part) => {
        const lower = part.toLowerCase();
        return segments.has(lower) ? lower : part;
      })
      .join("/");
  return canonical === pathname ? null : canonical;
}

/** Requests the canonical redirect leaves alone: assets, router data and manifest requests. */
export function isExemptFromCanonical(pathname: string): boolean {
  return pathname.startsWith("/assets/") || pathname.startsWith("/__manifest") || pathname.endsWith(".data");
}
