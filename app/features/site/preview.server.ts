import type { MiddlewareFunction } from "react-router";
import { getSessionUser, staffMayUse, type SessionUser } from "~/features/accounts/index.server";
import { PREVIEW_PARAMETER } from "~/lib/page-cache";
import { requestMeta } from "~/lib/request-meta";
import type { ContentData } from "~/services/content/collection";
import { activeDraftPreview, loadDraftPreview, withDraftPreview, type DraftPreview } from "~/services/content/preview.server";
import type { AnyContentCollection } from "~/services/content/registry.server";
import { redirecciones } from "./content-collections/redirecciones";
import { collectionArea } from "./editor/editor.server";

// «Vista previa» (issue 16 §2, docs/decisions/0049): `<public address>?vista-previa=<record id>`
// shows that record's draft, with everything else as published, to staff who may edit the record.
// For anyone else the parameter means nothing: the ordinary published page, no banner. The page
// cache never answers or keeps such an address (server/page-cache.ts), and the answer says so to
// every other cache and to search engines.

/** What the site layout shows on a preview: the banner and the way back to the editor. */
export interface DraftPreviewBanner {
  editorUrl: string;
  /** False when the record's own flag keeps it off the public site even once published. */
  visible: boolean;
}

/**
 * The pages that show a record, its own first (`paths()` of its collection). A redirect's address
 * shows no page (it answers 301), and a `#` address is a place inside another page.
 */
export function recordPages(collection: AnyContentCollection, data: ContentData): string[] {
  if (collection.name === redirecciones.name) return [];
  return collection.paths(data).filter((path) => path.startsWith("/") && !path.includes("#"));
}

/** The record's public address that opens its preview, or null when it has no page. */
export function previewAddress(collection: AnyContentCollection, id: string, data: ContentData | null): string | null {
  const [path] = data ? recordPages(collection, data) : [];
  return path ? `${path}?${new URLSearchParams({ [PREVIEW_PARAMETER]: id })}` : null;
}

/** Whether `staff` may see drafts of `collection`: the content area, and the collection's own (ajustes: admins). */
function mayPreview(staff: SessionUser | null, collection: AnyContentCollection): boolean {
  return staffMayUse(staff?.role, "contenido") && staffMayUse(staff?.role, collectionArea(collection));
}

/** The preview a request asks for and may see, or null (no parameter, not a read, not staff of that content, no such record). */
async function requestedPreview(request: Request, staff: () => Promise<SessionUser | null>): Promise<DraftPreview | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const id = new URL(request.url).searchParams.get(PREVIEW_PARAMETER);
  if (!id) return null;
  // Who asks first: a visitor's request with the parameter reads no draft from the database.
  const user = await staff();
  if (!staffMayUse(user?.role, "contenido")) return null;
  const preview = await loadDraftPreview(id);
  return preview && mayPreview(user, preview.collection) ? preview : null;
}

/**
 * The site's request middleware (root route): a staff preview runs the whole request — loaders and
 * render — inside the draft scope and answers as private, never stored and never indexed.
 */
export const draftPreviewMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const preview = await requestedPreview(request, () => getSessionUser(requestMeta(request, context)));
  if (!preview) return next();
  const response = await withDraftPreview(preview, next);
  // A copy: the headers of a response are not always writable (a redirect's may not be).
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Robots-Tag", "noindex");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

/** The banner of the preview this request is inside of, or null (every other request, every cached page). */
export function draftPreviewBanner(): DraftPreviewBanner | null {
  const preview = activeDraftPreview();
  if (!preview) return null;
  return { editorUrl: `/admin/contenido/${preview.collection.name}/${preview.record.id}`, visible: preview.visible };
}
