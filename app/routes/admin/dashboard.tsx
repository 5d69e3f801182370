import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/dashboard";
import type { loader as adminLayoutLoader } from "./layout";
import { AppLink } from "~/components/ui/app-link";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Administración", description: "Panel del personal de Forja.", noindex: true });

export default function AdminDashboardPage() {
  const layout = useRouteLoaderData<typeof adminLayoutLoader>("routes/admin/layout");
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Resumen</h1>
      <p className="mt-2 text-acero-700">
        Sesión iniciada como <strong>{layout?.staff.name}</strong> ({layout?.staff.email}).
      </p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        <li className="rounded-lg border border-acero-200 bg-white p-5">
          <h2 className="font-semibold text-acero-900">
            <AppLink to="/admin/formularios" className="hover:text-forja-700">
              Formularios recibidos
            </AppLink>
          </h2>
          <p className="mt-1 text-sm text-acero-700">Solicitudes de cotización y mensajes de contacto, con sus archivos.</p>
        </li>
        <li className="rounded-lg border border-acero-200 bg-white p-5">
          <h2 className="font-semibold text-acero-900">
            <AppLink to="/admin/clientes" className="hover:text-forja-700">
              Clientes
            </AppLink>
          </h2>
          <p className="mt-1 text-sm text-acero-700">Cuentas de clientes: buscar, ver si confirmaron su correo, bloquear o desbloquear.</p>
        </li>
      </ul>
    </main>
  );
}
