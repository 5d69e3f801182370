import { listRedirects } from "~/services/content/redirects.server";
import type { EntryRow } from "./editor.server";

// `redirecciones` is the store's redirects table, not records with drafts (docs/decisions/0037):
// /admin/contenido lists its 301s as rows like any collection's, each opening its own form.

/** Every redirect as a row of /admin/contenido (always live: a save applies at once). */
export async function redirectRows(): Promise<EntryRow[]> {
  return (await listRedirects()).map((item) => ({
    id: item.id,
    title: `${item.from} → ${item.to}`,
    slug: null,
    state: "publicado",
    stateLabel: "Activa",
    editedBy: null,
    editedAt: item.updated,
    lockedBy: null,
    fixed: false,
  }));
}
