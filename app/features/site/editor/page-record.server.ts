import { staffMayUse } from "~/features/accounts/index.server";
import { listEntries } from "~/services/content/entries.server";
import { listCollections, type AnyContentCollection } from "~/services/content/registry.server";
import { recordPages } from "../preview.server";
import { collectionArea } from "./editor.server";

// «Editar esta página» (issue 16 §2, docs/decisions/0049): which record of the content a public
// address shows, found through the collections' own `paths()` — the same contract that says what
// a publish invalidates — so a new collection or page needs nothing here.

/** Where a page's link leads: its record's form, its collection's list, or the content list with a notice. */
export type PageEditorTarget = { ok: true; to: string } | { ok: false; notice: "sin-registro" | "solo-administracion" };

/** The notices the content list shows for a page that has no record, or whose record the role may not edit. */
export const PAGE_NOTICE_PARAMETERS = { notice: "aviso", path: "ruta" } as const;

interface Match {
  collection: AnyContentCollection;
  ids: Set<string>;
}

/** A path as typed after the host, or null when it is not one (no scheme, no `//`, no query). */
function cleanPath(value: string): string | null {
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.length > 300 || /[?#\s]/.test(path)) return null;
  return path.length > 1 ? path.replace(/\/+$/, "").toLowerCase() : path;
}

/**
 * The collection and records showing `pathname`. A record's first address is its own page (an
 * industry's page, a content page, /faqs for the questions); the others are pages that list it
 * (/industrias, the home page): those count only when no collection has the address as its own.
 * Drafts count too, so a page seen in a preview is found as well.
 */
export async function findPageRecords(pathname: string): Promise<{ collection: AnyContentCollection; ids: string[] } | null> {
  const path = cleanPath(pathname);
  if (!path) return null;
  const own: Match[] = [];
  const listing: Match[] = [];
  for (const collection of listCollections()) {
    const ownIds = new Set<string>();
    const listingIds = new Set<string>();
    for (const entry of await listEntries(collection)) {
      for (const data of [entry.published, entry.draft]) {
        if (!data) continue;
        const paths = recordPages(collection, data).map((candidate) => candidate.toLowerCase());
        if (paths[0] === path) ownIds.add(entry.id);
        else if (paths.includes(path)) listingIds.add(entry.id);
      }
    }
    if (ownIds.size) own.push({ collection, ids: ownIds });
    else if (listingIds.size) listing.push({ collection, ids: listingIds });
  }
  const [found] = own.length ? own : listing;
  return found ? { collection: found.collection, ids: [...found.ids] } : null;
}

/** Where «Editar esta página» on `pathname` takes a staff member of `role`. */
export async function pageEditorTarget(pathname: string, role: string): Promise<PageEditorTarget> {
  const found = await findPageRecords(pathname);
  if (!found) return { ok: false, notice: "sin-registro" };
  if (!staffMayUse(role, collectionArea(found.collection))) return { ok: false, notice: "solo-administracion" };
  const base = `/admin/contenido/${found.collection.name}`;
  return { ok: true, to: found.ids.length === 1 ? `${base}/${found.ids[0]}` : base };
}

/** The content list's sentence for `?aviso=…&ruta=…` (from «Editar esta página»), or null. */
export function pageNoticeMessage(url: URL): string | null {
  const path = cleanPath(url.searchParams.get(PAGE_NOTICE_PARAMETERS.path) ?? "") ?? "esa dirección";
  switch (url.searchParams.get(PAGE_NOTICE_PARAMETERS.notice)) {
    case "sin-registro":
      return `La página ${path} no muestra ningún registro del contenido, así que no se edita desde aquí. Elija abajo lo que quiere cambiar.`;
    case "solo-administracion":
      return `La página ${path} muestra los ajustes del negocio, que solo edita quien administra el panel.`;
    default:
      return null;
  }
}
