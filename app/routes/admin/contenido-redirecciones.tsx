import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/contenido-redirecciones";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { AppLink } from "~/components/ui/app-link";
import { TableScroll } from "~/components/ui/table-scroll";
import { inputClass } from "~/features/site/editor/components/content-fields";
import { notFound } from "~/lib/errors";
import { formatDateTime } from "~/lib/format";
import { readForm } from "~/lib/request-body";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { deleteRedirect, listRedirects, saveRedirect } from "~/services/content/redirects.server";
import { requireContentCollection } from "./contenido-acceso.server";

// /admin/contenido/redirecciones (and …/nuevo, …/<id>): the 301s of the store's redirects table
// (docs/decisions/0037), the ones a slug change made and staff's own, listed, edited and deleted
// here with the same checks as the record API. They have no drafts nor history: a save is live.

const BASE = "/admin/contenido/redirecciones";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Redirecciones", description: "Direcciones anteriores del sitio y adónde llevan.", noindex: true });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireContentCollection(request, context, "redirecciones");
  const redirects = await listRedirects();
  const editing = params.id === undefined || params.id === "nuevo" ? null : (redirects.find((item) => item.id === params.id) ?? notFound(request));
  const saved = new URL(request.url).searchParams.has("guardada");
  return { redirects, editing, adding: params.id === "nuevo", saved };
}

interface ActionAnswer {
  values?: { desde: string; hacia: string };
  fieldErrors?: Record<string, string[]>;
  formErrors?: string[];
}

export async function action({ request, context, params }: Route.ActionArgs) {
  await requireContentCollection(request, context, "redirecciones");
  const form = await readForm(request);
  const id = params.id === undefined || params.id === "nuevo" ? undefined : params.id;
  if (form.get("intent") === "eliminar" && id) {
    const deleted = await deleteRedirect(id);
    if (!deleted.ok) return data<ActionAnswer>({ formErrors: failureMessages(deleted).formErrors }, { status: failureStatus(deleted) });
    throw redirect(BASE);
  }
  const values = { desde: String(form.get("desde") ?? ""), hacia: String(form.get("hacia") ?? "") };
  const saved = await saveRedirect({ id, ...values });
  if (!saved.ok) return data<ActionAnswer>({ values, ...failureMessages(saved) }, { status: failureStatus(saved) });
  throw redirect(`${BASE}/${saved.value.id}?guardada`);
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminRedirectsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { redirects, editing, adding, saved } = loaderData;
  const busy = useNavigation().state === "submitting";
  const values = actionData?.values ?? { desde: editing?.from ?? "", hacia: editing?.to ?? "" };
  const errors = actionData?.fieldErrors ?? {};
  const field = (name: "desde" | "hacia", label: string, help: string) => (
    <div>
      <label htmlFor={`redireccion-${name}`} className="block text-sm font-semibold text-acero-900">
        {label}
      </label>
      <input
        id={`redireccion-${name}`}
        name={name}
        defaultValue={values[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`redireccion-${name}-ayuda${errors[name] ? ` redireccion-${name}-error` : ""}`}
        className={inputClass}
      />
      <p id={`redireccion-${name}-ayuda`} className="mt-1 text-sm text-acero-600">
        {help}
      </p>
      {errors[name] ? (
        <p id={`redireccion-${name}-error`} className="mt-1 text-sm font-medium text-red-700">
          {errors[name][0]}
        </p>
      ) : null}
    </div>
  );
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/contenido" className={linkClass}>
          ← Contenido
        </AppLink>
      </p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">Redirecciones</h1>
          <p className="mt-1 max-w-3xl text-acero-700">
            Quien abre una dirección anterior llega a la nueva (redirección permanente, 301). Se crean solas cuando cambia la dirección de una página publicada; los cambios aquí se aplican al guardar.
          </p>
        </div>
        <AppLink to={`${BASE}/nuevo`} className="btn-primary py-2 text-sm">
          Agregar redirección
        </AppLink>
      </div>

      {editing || adding ? (
        <section aria-labelledby="redireccion-titulo" className="mt-6 max-w-2xl rounded-lg border border-acero-200 bg-white p-5">
          <h2 id="redireccion-titulo" className="text-lg font-semibold text-acero-900">
            {editing ? `Editar la redirección desde ${editing.from}` : "Agregar redirección"}
          </h2>
          <div className="mt-3 space-y-3">
            {saved && !actionData ? <FormNotice>Redirección guardada: {editing?.from} lleva a {editing?.to}.</FormNotice> : null}
            <FormErrors errors={actionData?.formErrors} />
          </div>
          <Form method="post" className="mt-3 space-y-4" key={editing?.id ?? "nuevo"}>
            {field("desde", "Dirección anterior", "La que ya no existe, por ejemplo /nosotros.")}
            {field("hacia", "Dirección nueva", "Adonde llega el visitante: una dirección de este sitio que empiece con /, o una completa con https://.")}
            <div className="flex flex-wrap gap-3">
              <button type="submit" name="intent" value="guardar" disabled={busy} className="btn-primary py-2 text-sm">
                Guardar redirección
              </button>
              {editing ? (
                <button type="submit" name="intent" value="eliminar" disabled={busy} className="btn-secondary py-2 text-sm">
                  Eliminar redirección
                </button>
              ) : null}
            </div>
          </Form>
        </section>
      ) : null}

      {redirects.length ? (
        <TableScroll label="Redirecciones" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Redirecciones</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Dirección anterior
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Dirección nueva
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Última modificación
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {redirects.map((item) => (
                <tr key={item.id} data-testid="redirect-row">
                  <td className="px-4 py-3 font-mono">
                    <AppLink to={`${BASE}/${item.id}`} className={linkClass} aria-label={`Editar la redirección desde ${item.from}`}>
                      {item.from}
                    </AppLink>
                  </td>
                  <td className="px-4 py-3 font-mono break-all">{item.to}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-acero-800">{formatDateTime(item.updated)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p className="mt-6 text-acero-700">Todavía no hay redirecciones.</p>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
