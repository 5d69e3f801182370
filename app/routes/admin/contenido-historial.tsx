import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/contenido-historial";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { TableScroll } from "~/components/ui/table-scroll";
import { DiffView } from "~/features/site/editor/components/diff-view";
import { entryTitle } from "~/features/site/editor/editor.server";
import { mediaViews } from "~/features/site/media/media-library.server";
import { notFound } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { readForm } from "~/lib/request-body";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { getEntry } from "~/services/content/entries.server";
import { diffVersions, listVersions, restoreVersion } from "~/services/content/versions.server";
import { requireContentCollection } from "./contenido-acceso.server";

// /admin/contenido/<colección>/<id>/historial: every published version with who and when, the
// difference between any two (field by field, a changed sentence as that sentence) and «Restaurar
// esta versión», which publishes it again as a new version after a confirmation.

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ title: loaderData ? `Historial: ${loaderData.title}` : "Historial", description: "Versiones publicadas de un registro del sitio.", noindex: true });

function versionParam(params: URLSearchParams, name: string): number | null {
  const value = Number(params.get(name));
  return Number.isInteger(value) && value > 0 ? value : null;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { collection } = await requireContentCollection(request, context, params.coleccion);
  const found = await getEntry(collection, params.id);
  if (!found.ok) notFound(request);
  const entry = found.value;
  const versions = await listVersions(entry.id);
  const search = new URL(request.url).searchParams;
  const latest = versions[0]?.number ?? null;
  const from = versionParam(search, "de") ?? (latest && latest > 1 ? latest - 1 : null);
  const to = versionParam(search, "a") ?? latest;
  const diff = from && to ? await diffVersions(collection, entry.id, from, to) : null;
  // An image field holds a media id: the screen shows the image and its description instead.
  const imageFields = new Set(collection.fields.filter((field) => field.kind === "media").map((field) => field.name));
  const imageIds = (diff?.ok ? diff.value : []).flatMap((change) => (change.kind === "value" && imageFields.has(change.field) ? [change.before, change.after] : [])).filter((value): value is string => typeof value === "string");
  const images = Object.fromEntries(await mediaViews(imageIds));
  return {
    images,
    collection: { name: collection.name, label: collection.label, singleton: collection.singleton },
    id: entry.id,
    title: entryTitle(collection, entry.draft ?? entry.published),
    version: entry.version,
    hasDraft: entry.draft !== null,
    versions: versions.map((version) => ({ number: version.number, by: version.publishedBy.name, at: version.publishedAt, restoredFrom: version.restoredFrom })),
    compare: { from, to, diff: diff?.ok ? diff.value : null, error: diff && !diff.ok ? failureMessages(diff).formErrors.join(" ") : null },
    confirm: versionParam(search, "restaurar"),
    restored: versionParam(search, "restaurada"),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { staff, collection } = await requireContentCollection(request, context, params.coleccion);
  const form = await readForm(request);
  const number = Number(form.get("numero"));
  const expected = Number(form.get("version"));
  if (!Number.isInteger(number) || !Number.isInteger(expected)) return data({ errors: ["No pudimos leer el formulario. Vuelva a cargar la página."] }, { status: 400 });
  const restored = await restoreVersion(collection, params.id, number, { id: staff.id, name: staff.name }, expected);
  if (restored.ok) throw redirect(`/admin/contenido/${collection.name}/${params.id}/historial?restaurada=${number}`);
  if (restored.kind === "not-found") notFound(request);
  const { formErrors, fieldErrors } = failureMessages(restored);
  return data({ errors: [...formErrors, ...Object.values(fieldErrors).flat()] }, { status: failureStatus(restored) });
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminContentHistoryPage({ loaderData, actionData }: Route.ComponentProps) {
  const { collection, id, title, version, hasDraft, versions, compare, confirm, restored } = loaderData;
  const base = `/admin/contenido/${collection.name}/${id}`;
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to={base} className={linkClass}>
          ← {title}
        </AppLink>
      </p>
      <h1 className="mt-2 text-2xl font-bold text-acero-900">Historial: {title}</h1>
      <p className="mt-1 text-acero-700">Cada versión publicada, con quién la publicó y cuándo. Restaurar una versión la publica de nuevo como una versión más.</p>

      <div className="mt-4 space-y-2">
        {restored ? <FormNotice>{`Versión ${restored} restaurada y publicada.`}</FormNotice> : null}
        <FormErrors errors={actionData?.errors} />
      </div>

      {confirm && versions.some((item) => item.number === confirm) ? (
        <section role="alert" aria-labelledby="confirmar-titulo" className="mt-4 rounded-lg border-2 border-amber-400 bg-amber-50 p-5">
          <h2 id="confirmar-titulo" className="text-lg font-bold text-acero-900">
            ¿Restaurar la versión {confirm}?
          </h2>
          <p className="mt-1 text-acero-800">
            Se publica de nuevo, con todos sus campos, como una versión nueva.
            {hasDraft ? " El borrador pendiente de este registro se descarta." : ""}
          </p>
          <Form method="post" className="mt-3 flex flex-wrap gap-3">
            <input type="hidden" name="numero" value={confirm} />
            <input type="hidden" name="version" value={version} />
            <button type="submit" className="btn-primary py-2 text-sm">
              Sí, restaurar la versión {confirm}
            </button>
            <AppLink to={`${base}/historial`} className="btn-secondary py-2 text-sm">
              No restaurar
            </AppLink>
          </Form>
        </section>
      ) : null}

      <TableScroll label="Versiones publicadas" className="mt-6 rounded-lg border border-acero-200 bg-white">
        <table className="min-w-full divide-y divide-acero-200 text-sm">
          <caption className="sr-only">Versiones publicadas</caption>
          <thead className="bg-acero-50 text-left text-acero-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Versión
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Publicó
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Fecha
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-acero-100">
            {versions.map((item, index) => (
              <tr key={item.number} data-testid="version-row">
                <td className="px-4 py-3 font-semibold whitespace-nowrap">
                  {item.number}
                  {index === 0 ? <span className="ml-2 font-normal text-green-800">(publicada ahora)</span> : null}
                  {item.restoredFrom ? <span className="block text-xs font-normal text-acero-700">Restauración de la versión {item.restoredFrom}</span> : null}
                </td>
                <td className="px-4 py-3">{item.by}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(item.at)}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {index > 0 ? (
                    <AppLink to={`${base}/historial?restaurar=${item.number}`} className={linkClass}>
                      Restaurar esta versión<span className="sr-only"> (número {item.number})</span>
                    </AppLink>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      {versions.length > 1 ? (
        <section aria-labelledby="comparar-titulo" className="mt-8">
          <h2 id="comparar-titulo" className="text-lg font-semibold text-acero-900">
            Comparar versiones
          </h2>
          <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
            <VersionSelect id="comparar-de" name="de" label="De la versión" numbers={versions.map((item) => item.number)} selected={compare.from} />
            <VersionSelect id="comparar-a" name="a" label="A la versión" numbers={versions.map((item) => item.number)} selected={compare.to} />
            <button type="submit" className="btn-secondary py-2 text-sm">
              Comparar
            </button>
          </Form>
          {compare.error ? <FormErrors errors={[compare.error]} /> : null}
          {compare.diff ? (
            <div className="mt-2 overflow-x-auto">
              <p className="text-sm text-acero-700">
                Cambios de la versión {compare.from} a la {compare.to}:
              </p>
              <DiffView diff={compare.diff} images={loaderData.images} caption={`Cambios de la versión ${compare.from} a la ${compare.to}`} />
            </div>
          ) : null}
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}

/** One end of the comparison: a labelled list of the version numbers. */
function VersionSelect({ id, name, label, numbers, selected }: { id: string; name: string; label: string; numbers: number[]; selected: number | null | undefined }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-acero-900">
        {label}
      </label>
      <select id={id} name={name} defaultValue={selected ?? undefined} className="mt-1 rounded-md border border-acero-300 bg-white px-3 py-2">
        {numbers.map((number) => (
          <option key={number} value={number}>
            {number}
          </option>
        ))}
      </select>
    </div>
  );
}
