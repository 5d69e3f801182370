import type { ReactNode } from "react";
import { Form } from "react-router";
import { AppLink, AppNavLink } from "~/components/ui/app-link";
import { clearAdminMarker } from "~/lib/admin-marker";

// `area`: the staff area a section belongs to (app/features/accounts/staff-roles.ts); the sidebar
// shows a section only when the signed-in role may use it. The summary is everyone's.
const adminNavigation: readonly { to: string; label: string; end: boolean; area?: string }[] = [
  { to: "/admin", label: "Resumen", end: true },
  { to: "/admin/formularios", label: "Solicitudes", end: false, area: "solicitudes" },
  { to: "/admin/cotizaciones", label: "Cotizaciones", end: false, area: "cotizaciones" },
  { to: "/admin/clientes", label: "Clientes", end: false, area: "clientes" },
  { to: "/admin/pedidos", label: "Pedidos", end: false, area: "pedidos" },
  { to: "/admin/productos", label: "Productos", end: false, area: "productos" },
  { to: "/admin/contenido", label: "Contenido", end: false, area: "contenido" },
  { to: "/admin/medios", label: "Imágenes", end: false, area: "contenido" },
  { to: "/admin/personal", label: "Personal", end: false, area: "personal" },
  { to: "/admin/sistema", label: "Sistema", end: false, area: "sistema" },
];


/** Admin layout: a sidebar with the staff sections, who is signed in, and the page beside it. */
export function AdminShell({ children, staff }: { children: ReactNode; staff?: { name: string; email: string; roleLabel?: string; areas?: readonly string[] } }) {
  const navigation = adminNavigation.filter((item) => !item.area || (staff?.areas ?? []).includes(item.area));
  return (
    <div className="flex min-h-screen flex-col bg-acero-50 md:flex-row">
      <aside className="border-b border-acero-800 bg-acero-900 text-acero-100 md:w-64 md:shrink-0 md:border-r md:border-b-0">
        <div className="p-4">
          <AppLink to="/admin" className="text-base font-bold whitespace-nowrap text-white">
            Forja · Administración
          </AppLink>
          {staff ? (
            <p className="mt-1 text-sm text-acero-200" data-testid="admin-staff">
              {staff.name}
              <span className="block text-xs break-all text-acero-300">{staff.email}</span>
              {staff.roleLabel ? <span className="block text-xs text-acero-300">Rol: {staff.roleLabel}</span> : null}
            </p>
          ) : null}
        </div>
        <nav aria-label="Administración" className="px-2 pb-4">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {navigation.map((item) => (
              <li key={item.to}>
                <AppNavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-acero-700 text-white" : "text-acero-100 hover:bg-acero-800"}`
                  }
                >
                  {item.label}
                </AppNavLink>
              </li>
            ))}
            <li>
              <AppLink to="/" className="block rounded-md px-3 py-2 text-sm text-acero-200 hover:bg-acero-800">
                Ver el sitio
              </AppLink>
            </li>
            {staff ? (
              <li>
                <Form
                  method="post"
                  action="/salir"
                  onSubmit={clearAdminMarker}
                >
                  <input type="hidden" name="redirectTo" value="/admin/login" />
                  <button type="submit" className="block w-full rounded-md px-3 py-2 text-left text-sm text-acero-200 hover:bg-acero-800">
                    Cerrar sesión
                  </button>
                </Form>
              </li>
            ) : null}
          </ul>
        </nav>
      </aside>
      {/* min-w-0: a wide table scrolls in its own box instead of widening the page and squeezing the
          sidebar; long emails, references and file names break instead of running past their boxes. */}
      <div className="page-view min-w-0 flex-1 wrap-anywhere">{children}</div>
    </div>
  );
}
