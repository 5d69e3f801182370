import type { Route } from "./+types/contenido";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { staffMayUse } from "~/features/accounts/index.server";
import { EntriesTable } from "~/features/site/editor/components/entries-table";
import { editorCollections, entryRow } from "~/features/site/editor/editor.server";
import { pageNoticeMessage } from "~/features/site/editor/page-record.server";
import { redirectRows } from "~/features/site/editor/redirect-rows.server";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { listEntries } from "~/services/content/entries.server";

// /admin/contenido: every collection the role may edit, with its records and where each stands.
// One-record collections (ajustes, inicio) link straight to their record.

export const meta: Route.MetaFunction = () => pageMeta({ title: "Contenido", description: "Textos, páginas y datos del sitio.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "contenido");
  const allowed = editorCollections().filter(({ area }) => staffMayUse(staff.role, area));
  const collections = await Promise.all(
    allowed.map(async ({ collection }) => {
      const entries = await listEntries(collection);
      return {
        name: collection.name,
        label: collection.label,
        singular: collection.singular,
        singleton: collection.singleton,
        singleId: collection.singleton ? (entries[0]?.id ?? null) : null,
        // The 301s live in the redirects table (their page: routes/admin/contenido-redirecciones.tsx).
        rows: collection.name === "redirecciones" ? await redirectRows() : entries.map((entry) => entryRow(collection, entry)),
      };
    }),
  );
  // Sent here by «Editar esta página» from a page it could not open (docs/decisions/0049).
  return { collections, notice: pageNoticeMessage(new URL(request.url)) };
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminContentPage({ loaderData }: Route.ComponentProps) {
  const { collections, notice } = loaderData;
  const singles = collections.filter((collection) => collection.singleton);
  const lists = collections.filter((collection) => !collection.singleton);
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Contenido</h1>
      <p className="mt-1 max-w-3xl text-acero-700">
        Lo que el público ve en el sitio. Sus cambios se guardan como borrador y el sitio no cambia hasta que usted los publica.
      </p>
      {notice ? (
        <p role="status" className="mt-4 max-w-3xl rounded-md border border-amber-300 bg-amber-50 p-3 text-sm font-semibold text-amber-950">
          {notice}
        </p>
      ) : null}

      {singles.length ? (
        <section aria-labelledby="registros-unicos" className="mt-6">
          <h2 id="registros-unicos" className="text-lg font-semibold text-acero-900">
            Datos generales
          </h2>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {singles.map((collection) => (
              <li key={collection.name} className="rounded-lg border border-acero-200 bg-white p-4">
                {collection.singleId ? (
                  <AppLink to={`/admin/contenido/${collection.name}/${collection.singleId}`} className={linkClass}>
                    {collection.label}
                  </AppLink>
                ) : (
                  <span className="font-semibold text-acero-900">{collection.label}</span>
                )}
                <p className="mt-1 text-sm text-acero-700">{collection.rows[0]?.stateLabel ?? "Sin registro"}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {lists.map((collection) => (
        <section key={collection.name} aria-labelledby={`coleccion-${collection.name}`} className="mt-8">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id={`coleccion-${collection.name}`} className="text-lg font-semibold text-acero-900">
              <AppLink to={`/admin/contenido/${collection.name}`} className="hover:underline">
                {collection.label}
              </AppLink>
            </h2>
            <AppLink to={`/admin/contenido/${collection.name}/nuevo`} className="btn-secondary py-2 text-sm">
              Agregar {collection.singular}
            </AppLink>
          </div>
          {collection.rows.length ? (
            <EntriesTable collection={collection.name} label={collection.label} rows={collection.rows} />
          ) : (
            <p className="mt-3 text-sm text-acero-700">Todavía no hay registros.</p>
          )}
        </section>
      ))}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
