import type { Route } from "./+types/login";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Acceso del personal", description: "Acceso al panel de administración de Forja.", noindex: true });

export default function AdminLoginPage() {
  return (
    <main id="contenido" className="grid min-h-screen place-items-center bg-acero-900 p-4">
      <div className="w-full max-w-md rounded-lg bg-white p-8 shadow-xl">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Forja · Administración</p>
        <h1 className="mt-2 text-2xl font-bold text-acero-900">Acceso del personal</h1>
        <p className="mt-3 text-acero-700">
          Las cuentas del personal las crea el administrador del sistema con <code className="rounded bg-acero-100 px-1">npm run admin:create</code>.
        </p>
      </div>
    </main>
  );
}
