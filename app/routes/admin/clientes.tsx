import { Form, data, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/clientes";
import { FormNotice } from "~/components/ui/form";
import { CUSTOMERS_PAGE_SIZE, listCustomers, setCustomerBlocked } from "~/features/accounts/customers.server";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { IMPERSONATION_SECONDS, mayImpersonate, startBrowserImpersonation } from "~/features/accounts/index.server";
import { formatDate } from "~/lib/format";
import { pageCount, positiveInt, searchText } from "~/lib/list-params";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { Pagination } from "~/components/ui/pagination";
import { TableScroll } from "~/components/ui/table-scroll";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Clientes", description: "Cuentas de clientes.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "clientes");
  const params = new URL(request.url).searchParams;
  const search = searchText(params.get("q")) ?? "";
  const page = positiveInt(params.get("pagina"), 1);
  return { search, page, pageSize: CUSTOMERS_PAGE_SIZE, mayImpersonate: mayImpersonate(staff.role), ...(await listCustomers({ search, page })) };
}

/** Where «Ver como cliente» opens the customer's view. */
const VIEW_DESTINATIONS = { cuenta: "/cuenta", cotizaciones: "/quotes" } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const staff = await requireStaffArea(meta, "clientes");
  const formData = await readForm(request);
  const userId = String(formData.get("userId") ?? "");
  if (formData.get("intent") === "impersonate") {
    // «Ver como cliente» (docs/decisions/0063): admins only, read-only unless they ask for changes.
    const started = await startBrowserImpersonation(meta, { customerId: userId, seconds: IMPERSONATION_SECONDS.default, writable: formData.get("writable") === "on" });
    if (!started.ok) return data({ message: failureMessages(started).formErrors.join(" ") }, { status: failureStatus(started) });
    const destination = formData.get("destino") === "cotizaciones" ? VIEW_DESTINATIONS.cotizaciones : VIEW_DESTINATIONS.cuenta;
    throw redirect(destination, { headers: started.value });
  }
  const blocked = formData.get("intent") === "block";
  const result = await setCustomerBlocked({ actor: staff, userId, blocked });
  if (!result.ok) return data({ message: failureMessages(result).formErrors.join(" ") }, { status: failureStatus(result) });
  return { message: blocked ? "Cuenta bloqueada: sus sesiones se cerraron y no podrá entrar." : "Cuenta desbloqueada." };
}

export default function AdminCustomersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, page, search, pageSize, mayImpersonate: showView } = loaderData;
  const [params] = useSearchParams();
  const pages = pageCount(total, pageSize);
  const pageHref = (target: number) => {
    const next = new URLSearchParams(params);
    next.set("pagina", String(target));
    return `?${next.toString()}`;
  };
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Clientes</h1>
      <p className="mt-1 text-acero-700">
        {total === 1 ? "1 cuenta" : `${total} cuentas`}
        {search ? ` que coinciden con «${search}»` : ""}.
      </p>
      <Form method="get" className="mt-6 flex max-w-xl gap-2" role="search">
        <label htmlFor="buscar-cliente" className="sr-only">
          Buscar por nombre, correo o empresa
        </label>
        <input
          id="buscar-cliente"
          name="q"
          type="search"
          defaultValue={search}
          placeholder="Nombre, correo o empresa"
          className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2"
        />
        <button type="submit" className="btn-dark py-2">
          Buscar
        </button>
      </Form>
      {actionData?.message ? (
        <div className="mt-4">
          <FormNotice>{actionData.message}</FormNotice>
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-700">
          {search ? "Ninguna cuenta coincide con su búsqueda." : "Todavía no hay cuentas de clientes."}
        </p>
      ) : (
        <TableScroll label="Cuentas de clientes" className="mt-6 rounded-lg border border-acero-200 bg-white">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <caption className="sr-only">Cuentas de clientes</caption>
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Nombre</th>
                <th scope="col" className="px-4 py-3 font-semibold">Correo</th>
                <th scope="col" className="px-4 py-3 font-semibold">Empresa</th>
                <th scope="col" className="px-4 py-3 font-semibold">Correo confirmado</th>
                <th scope="col" className="px-4 py-3 font-semibold">Alta</th>
                <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
                {showView ? <th scope="col" className="px-4 py-3 font-semibold">Vista de cliente</th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="px-4 py-3 font-medium text-acero-900">{row.name}</td>
                  <td className="px-4 py-3 text-acero-800">{row.email}</td>
                  <td className="px-4 py-3 text-acero-800">{row.company || "—"}</td>
                  <td className="px-4 py-3">{row.emailVerified ? "Sí" : "No"}</td>
                  <td className="px-4 py-3 text-acero-800">{formatDate(row.createdAt)}</td>
                  <td className="px-4 py-3">
                    <Form method="post" className="flex items-center gap-3">
                      <input type="hidden" name="userId" value={row.id} />
                      <span className={row.banned ? "font-semibold text-red-800" : "text-green-800"}>{row.banned ? "Bloqueada" : "Activa"}</span>
                      <button
                        type="submit"
                        name="intent"
                        value={row.banned ? "unblock" : "block"}
                        className="rounded-md border border-acero-300 px-3 py-1 text-sm font-medium hover:bg-acero-50"
                        aria-label={`${row.banned ? "Desbloquear" : "Bloquear"} a ${row.name}`}
                      >
                        {row.banned ? "Desbloquear" : "Bloquear"}
                      </button>
                    </Form>
                  </td>
                  {showView ? (
                    <td className="px-4 py-3">
                      <Form method="post" reloadDocument className="flex flex-wrap items-center gap-2">
                        <input type="hidden" name="userId" value={row.id} />
                        <label className="sr-only" htmlFor={`destino-${row.id}`}>
                          Página que abre la vista de {row.name}
                        </label>
                        <select id={`destino-${row.id}`} name="destino" className="rounded-md border border-acero-300 bg-white px-2 py-1">
                          <option value="cuenta">Su cuenta</option>
                          <option value="cotizaciones">Sus cotizaciones</option>
                        </select>
                        <label className="flex items-center gap-1">
                          <input type="checkbox" name="writable" />
                          Permitir cambios
                        </label>
                        <button
                          type="submit"
                          name="intent"
                          value="impersonate"
                          disabled={row.banned}
                          className="rounded-md border border-acero-300 px-3 py-1 text-sm font-medium hover:bg-acero-50 disabled:opacity-50"
                          aria-label={`Ver como cliente: ${row.name}`}
                        >
                          Ver como cliente
                        </button>
                      </Form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination page={page} pages={pages} hrefFor={pageHref} />
    </main>
  );
}
