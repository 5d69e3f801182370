import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/dashboard";
import type { loader as adminLayoutLoader } from "./layout";
import { SystemStatusPanel } from "~/components/admin/system-status-panel";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { LiveNotices } from "~/components/live/live-notices";
import { AppLink } from "~/components/ui/app-link";
import { TableScroll } from "~/components/ui/table-scroll";
import { requireStaff } from "~/features/accounts/guards.server";
import { getDashboardStats } from "~/features/solicitudes/dashboard.server";
import { StatusPill, UnreadMarker } from "~/features/solicitudes/components/solicitud-badges";
import { useLiveSolicitudes } from "~/features/solicitudes/components/use-live-solicitudes";
import { formatDateTime, formatNumber } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { staffMayUse } from "~/features/accounts/staff-roles";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Administración", description: "Panel del personal de Forja.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  // The summary is everyone's; its figures and status only for the roles whose areas they are.
  const solicitudes = staffMayUse(staff.role, "solicitudes");
  return {
    stats: solicitudes ? await getDashboardStats(new Date()) : null,
    sections: { solicitudes, clientes: staffMayUse(staff.role, "clientes"), sistema: staffMayUse(staff.role, "sistema") },
  };
}

const SHORT_TYPE: Record<string, string> = { cotizacion: "Cotización", contacto: "Contacto" };
const linkClass = "font-semibold text-forja-700 underline underline-offset-2";
const weekDay = new Intl.DateTimeFormat("es-MX", { day: "numeric", month: "long", timeZone: "UTC" });

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const layout = useRouteLoaderData<typeof adminLayoutLoader>("routes/admin/layout");
  const { stats, sections } = loaderData;
  // Live: new requests and read marks move the figures and the list without a reload.
  const notices = useLiveSolicitudes();
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Resumen</h1>
      <p className="mt-2 text-acero-700">
        Hola, <strong>{layout?.staff.name}</strong>
        {layout?.staff.email ? ` (${layout.staff.email})` : ""}.
      </p>
      {stats ? <SolicitudesSummary stats={stats} /> : null}
      {sections.sistema ? (
        <div className="mt-8">
          <SystemStatusPanel />
        </div>
      ) : null}
      {sections.solicitudes || sections.clientes ? (
        <section aria-labelledby="secciones" className="mt-8">
          <h2 id="secciones" className="text-lg font-semibold text-acero-900">
            Secciones
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {sections.solicitudes ? (
              <li className="rounded-lg border border-acero-200 bg-white p-5">
                <h3 className="font-semibold text-acero-900">
                  <AppLink to="/admin/formularios" className="hover:text-forja-700">
                    Solicitudes recibidas
                  </AppLink>
                </h3>
                <p className="mt-1 text-sm text-acero-700">Solicitudes de cotización y mensajes de contacto, con sus archivos. Filtrar, exportar a CSV y dar seguimiento.</p>
              </li>
            ) : null}
            {sections.clientes ? (
              <li className="rounded-lg border border-acero-200 bg-white p-5">
                <h3 className="font-semibold text-acero-900">
                  <AppLink to="/admin/clientes" className="hover:text-forja-700">
                    Clientes
                  </AppLink>
                </h3>
                <p className="mt-1 text-sm text-acero-700">Cuentas de clientes: buscar, ver si confirmaron su correo, bloquear o desbloquear.</p>
              </li>
            ) : null}
          </ul>
        </section>
      ) : null}
      <LiveNotices notices={notices} />
    </main>
  );
}

type DashboardStats = NonNullable<Route.ComponentProps["loaderData"]["stats"]>;

/** The requests' figures and the latest ones (roles with the "solicitudes" area). */
function SolicitudesSummary({ stats }: { stats: DashboardStats }) {
  const figures = [
    { label: "Nuevos hoy", value: stats.today, help: "Recibidos desde las 0:00 (hora de la Ciudad de México)." },
    { label: "Esta semana", value: stats.week, help: `Desde el lunes ${weekDay.format(new Date(`${stats.weekStart}T00:00:00Z`))}.` },
    { label: "Sin leer", value: stats.unread, help: "Solicitudes que nadie del equipo ha abierto." },
  ];
  return (
    <>
      <section aria-labelledby="cifras" className="mt-6">
        <h2 id="cifras" className="sr-only">
          Cifras de solicitudes
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          {figures.map((figure) => (
            <div key={figure.label} className="rounded-lg border border-acero-200 bg-white p-5">
              <dt className="text-sm font-semibold text-acero-700">{figure.label}</dt>
              <dd className="mt-1 text-3xl font-bold text-acero-900">{formatNumber(figure.value)}</dd>
              <dd className="mt-1 text-xs text-acero-600">{figure.help}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="recientes" className="mt-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="recientes" className="text-lg font-semibold text-acero-900">
            Últimas solicitudes
          </h2>
          <AppLink to="/admin/formularios" className={`${linkClass} text-sm`}>
            Ver todas las solicitudes
          </AppLink>
        </div>
        {stats.latest.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-700">
            Todavía no hay solicitudes recibidas. Aquí aparecerán las solicitudes de cotización y los mensajes de contacto.
          </p>
        ) : (
          <TableScroll label="Las 10 solicitudes más recientes" className="mt-4 rounded-lg border border-acero-200 bg-white">
            <table className="min-w-full divide-y divide-acero-200 text-sm">
              <caption className="sr-only">Las 10 solicitudes más recientes</caption>
              <thead className="bg-acero-50 text-left text-acero-800">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    <span className="sr-only">Leído</span>
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">Número</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Tipo</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Fecha</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Nombre</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Empresa</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-acero-100">
                {stats.latest.map((row) => (
                  <tr key={row.id} className={row.unread ? "font-semibold" : undefined}>
                    <td className="px-4 py-3">
                      <UnreadMarker unread={row.unread} />
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      <AppLink to={`/admin/formularios/${row.id}`} className={linkClass}>
                        {row.number}
                      </AppLink>
                    </td>
                    <td className="px-4 py-3 text-acero-800">{SHORT_TYPE[row.type] ?? row.type}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-acero-800">{formatDateTime(row.createdAt)}</td>
                    <td className="px-4 py-3 text-acero-900">{row.name}</td>
                    <td className="px-4 py-3 text-acero-800">{row.company || "—"}</td>
                    <td className="px-4 py-3">
                      <StatusPill status={row.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
