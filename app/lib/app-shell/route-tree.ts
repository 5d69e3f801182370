import type { RouteObject } from "react-router";

export interface FlatRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/** Rebuilds the nested route tree from a flat manifest (server build or browser manifest) for matchRoutes. */
export function routeTreeFromManifest(routes: Record<string, FlatRoute | undefined>): RouteObject[] {
  const byParent = new Map<string | undefined, FlatRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const build = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) =>
      route.index ? { id: route.id, index: true, path: route.path } : { id: route.id, path: route.path, children: build(route.id) },
    );
  return build(undefined);
}
