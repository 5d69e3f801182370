import { matchRoutes } from "react-router";
import { createStore } from "./external-store";
import { routeTreeFromManifest } from "./route-tree";

// Route chunks are imported before the router navigates, so a failed import (a deploy removed
// the file, the network dropped it) becomes a guarded full load of the target instead of the
// router's own reload of the current page.

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}

declare global {
  interface Window {
    __reactRouterManifest?: { version: string; routes: Record<string, ManifestRoute> };
    __reactRouterContext?: { routeDiscovery?: { mode: string; manifestPath?: string } };
  }
}

const chunkError = createStore<Error | null>(null);

export function reportChunkError(error: Error): void {
  chunkError.set(error);
}

export function useChunkError(): Error | null {
  return chunkError.useValue();
}

/** Imports the modules of every route that `pathname` matches; rejects when one fails to load. */
export async function preloadRouteModules(pathname: string): Promise<void> {
  const manifest = window.__reactRouterManifest;
  if (!manifest) return;
  let routes = manifest.routes;
  let matches = matchRoutes(routeTreeFromManifest(routes), pathname) ?? [];
  // A match without parameters is final; otherwise a more specific route may not be known yet.
  if (matches.length === 0 || matches.some((match) => /[:*]/.test(match.route.path ?? ""))) {
    routes = { ...(await discoveredRoutes(pathname, manifest.version)), ...manifest.routes };
    matches = matchRoutes(routeTreeFromManifest(routes), pathname) ?? [];
  }
  await Promise.all(
    matches.map((match) => {
      const route = routes[match.route.id as string];
      return route ? import(/* @vite-ignore */ route.module) : undefined;
    }),
  );
}

/** What /__manifest said per path (a new build asks again: the version is part of the address). */
const discovered = new Map<string, Promise<Record<string, ManifestRoute>>>();

/**
 * With lazy route discovery (docs/decisions/0064) the page's manifest holds only the routes it
 * matched and those React Router has discovered since: the routes `pathname` matches are asked of
 * /__manifest at the very address React Router itself asks before navigating there (the answer is
 * immutable, so its own request is then answered by the browser's cache). Not added to React
 * Router's manifest: it patches its routes only for the entries missing there. Empty when the
 * server has another build (React Router then loads the target as a new document) and without
 * lazy discovery; rejects when the request fails, like a chunk that cannot be loaded.
 */
function discoveredRoutes(pathname: string, version: string): Promise<Record<string, ManifestRoute>> {
  const discovery = window.__reactRouterContext?.routeDiscovery;
  if (discovery?.mode !== "lazy") return Promise.resolve({});
  const known = discovered.get(pathname);
  if (known) return known;
  // The path and its ancestors, sorted: React Router's own request for a navigation.
  const paths = new Set<string>();
  for (let at = 1; at < pathname.length; at++) if (pathname[at] === "/") paths.add(pathname.slice(0, at));
  paths.add(pathname);
  const url = new URL(discovery.manifestPath || "/__manifest", window.location.origin);
  url.search = new URLSearchParams({ paths: [...paths].sort().join(","), version }).toString();
  const request = fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`/__manifest respondió ${response.status}`);
    return response.status === 204 ? {} : ((await response.json()) as Record<string, ManifestRoute>);
  });
  if (discovered.size >= 500) discovered.clear();
  discovered.set(pathname, request);
  // A failed request is asked again next time.
  request.catch(() => discovered.get(pathname) === request && discovered.delete(pathname));
  return request;
}
