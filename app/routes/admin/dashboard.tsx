import type { Route } from "./+types/dashboard";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Administración", description: "Panel del personal de Forja.", noindex: true });

export default function AdminDashboardPage() {
  return (
    <main id="contenido" className="p-6">
      <h1 className="text-2xl font-bold text-acero-900">Resumen</h1>
      <p className="mt-2 text-acero-700">Solicitudes recientes, cotizaciones por vencer y pedidos pendientes de pago.</p>
    </main>
  );
}
