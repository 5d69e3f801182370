import { requireStaffArea } from "~/features/accounts/guards.server";
import type { SessionUser } from "~/features/accounts/index.server";
import { collectionArea, findEditorCollection } from "~/features/site/editor/editor.server";
import { notFound } from "~/lib/errors";
import type { RouterContextProvider } from "react-router";
import { requestMeta } from "~/lib/request-meta";
import type { AnyContentCollection } from "~/services/content/registry.server";

// The guard of every /admin/contenido page and action (docs/decisions/0045): the content area for
// any collection, and the collection's own area (ajustes: admins) for its records. An unknown
// collection is a 404 only after the content area is checked, so a role without it learns nothing.

export async function requireContentCollection(request: Request, context: Readonly<RouterContextProvider>, name: string): Promise<{ staff: SessionUser; collection: AnyContentCollection }> {
  const meta = requestMeta(request, context);
  const staff = await requireStaffArea(meta, "contenido");
  const collection = findEditorCollection(name);
  if (!collection) notFound(request);
  if (collectionArea(collection) !== "contenido") await requireStaffArea(meta, collectionArea(collection));
  return { staff, collection };
}
