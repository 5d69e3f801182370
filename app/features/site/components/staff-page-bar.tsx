import { useEffect, useState } from "react";
import { useLocation, useMatches, useRouteLoaderData } from "react-router";
import { hasAdminMarker, hasContentEditorMarker } from "~/lib/admin-marker";
import { hasSessionHint } from "~/lib/session-hint";
import type { DraftPreviewBanner } from "../preview.server";

// What the public site shows staff only (issue 16 §2, docs/decisions/0049), at the bottom of the
// viewport:
// - on a preview of a draft, the banner the server rendered (root loader): what this is, that
//   visitors still see the published version, the way back to the editor;
// - on a page that shows content records, «Editar esta página». Public pages are cached and
//   rendered without cookies, so the link is decided in the browser, after hydration, from what the
//   panel leaves there (its sign-in marker and the session hint); the server decides the rest.

/** Leaf routes whose page shows records of the content collections. */
export const CONTENT_PAGE_ROUTES: ReadonlySet<string> = new Set([
  "routes/site/home",
  "routes/site/about",
  "routes/site/contact",
  "routes/site/faqs",
  "routes/site/servicios",
  "routes/site/industrias",
  "routes/site/industry",
  "routes/site/content-page",
]);

/** The panel's address that opens the record shown at `pathname`. */
export function pageEditorHref(pathname: string): string {
  return `/admin/contenido/ir?${new URLSearchParams({ ruta: pathname })}`;
}

const BAR = "sticky bottom-0 z-40 border-t-4 border-amber-400 bg-amber-50 text-amber-950 shadow-[0_-4px_12px_rgb(0_0_0/0.12)]";
const LINK = "inline-flex items-center rounded-md bg-acero-900 px-4 py-2 text-sm font-semibold text-white hover:bg-acero-800";

export function StaffPageBar() {
  // Typed locally: nothing outside routes imports the root module.
  const root = useRouteLoaderData("root") as { preview?: DraftPreviewBanner | null } | undefined;
  const preview = root?.preview ?? null;
  const leaf = useMatches().at(-1)?.id;
  const { pathname } = useLocation();
  const [staff, setStaff] = useState(false);
  useEffect(() => setStaff(hasAdminMarker() && hasContentEditorMarker() && hasSessionHint(document.cookie)), [pathname]);

  if (preview) {
    return (
      <aside aria-labelledby="vista-previa-titulo" className={BAR} data-testid="preview-banner">
        {/* React moves it into <head>: a preview is never indexed (the answer's X-Robots-Tag says so too). */}
        <meta name="robots" content="noindex" />
        <div className="container-page flex flex-wrap items-center justify-between gap-3 py-3">
          <div>
            <p id="vista-previa-titulo" className="font-bold">
              Vista previa del borrador
            </p>
            <p className="text-sm">
              Solo usted la ve: los visitantes siguen viendo la versión publicada hasta que usted publique los cambios.
              {preview.visible ? null : " Este registro no está marcado como publicado: aunque lo publique, no aparecerá en el sitio."}
            </p>
          </div>
          <a href={preview.editorUrl} className={LINK}>
            Volver al editor
          </a>
        </div>
      </aside>
    );
  }
  if (!staff || !leaf || !CONTENT_PAGE_ROUTES.has(leaf)) return null;
  return (
    <nav aria-label="Herramientas del personal" className="pointer-events-none sticky bottom-0 z-40 flex justify-end p-4">
      <a href={pageEditorHref(pathname)} className={`${LINK} pointer-events-auto shadow-lg`}>
        Editar esta página
      </a>
    </nav>
  );
}
