import { redirect } from "react-router";
import type { Route } from "./+types/contenido-coleccion";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { EntriesTable } from "~/features/site/editor/components/entries-table";
import { entryRow } from "~/features/site/editor/editor.server";
import { pageMeta } from "~/lib/seo";
import { listEntries } from "~/services/content/entries.server";
import { requireContentCollection } from "./contenido-acceso.server";

// /admin/contenido/<colección>: its records, and «Nuevo» for collections of many records. A
// one-record collection (ajustes, inicio) opens its record.

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ title: loaderData?.label ?? "Contenido", description: "Registros de una colección del sitio.", noindex: true });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { collection } = await requireContentCollection(request, context, params.coleccion);
  const entries = await listEntries(collection);
  if (collection.singleton && entries[0]) throw redirect(`/admin/contenido/${collection.name}/${entries[0].id}`);
  return { name: collection.name, label: collection.label, singular: collection.singular, singleton: collection.singleton, rows: entries.map((entry) => entryRow(collection, entry)) };
}

export default function AdminContentCollectionPage({ loaderData }: Route.ComponentProps) {
  const { name, label, singular, singleton, rows } = loaderData;
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/contenido" className="font-semibold text-forja-700 underline underline-offset-2">
          ← Contenido
        </AppLink>
      </p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">{label}</h1>
          <p className="mt-1 text-acero-700">{rows.length === 1 ? "1 registro" : `${rows.length} registros`}.</p>
        </div>
        {!singleton || rows.length === 0 ? (
          <AppLink to={`/admin/contenido/${name}/nuevo`} className="btn-primary py-2 text-sm">
            Agregar {singular}
          </AppLink>
        ) : null}
      </div>
      {rows.length ? <EntriesTable collection={name} label={label} rows={rows} /> : <p className="mt-6 text-acero-700">Todavía no hay registros.</p>}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
