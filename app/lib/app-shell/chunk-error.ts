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
    __reactRouterManifest?: { routes: Record<string, ManifestRoute> };
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
  const matches = matchRoutes(routeTreeFromManifest(manifest.routes), pathname) ?? [];
  await Promise.all(
    matches.map((match) => {
      const route = manifest.routes[match.route.id as string];
      return route ? import(/* @vite-ignore */ route.module) : undefined;
    }),
  );
}
