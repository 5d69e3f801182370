import type { Route } from "./+types/formularios";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Formularios recibidos", description: "Solicitudes de cotización y mensajes de contacto.", noindex: true });

export default function AdminFormsPage() {
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Formularios recibidos</h1>
      <p className="mt-2 text-acero-700">Solicitudes de cotización y mensajes de contacto, con sus archivos adjuntos.</p>
      <p className="mt-6 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-700">Todavía no hay formularios recibidos.</p>
    </main>
  );
}
