import type { Route } from "./+types/formularios";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Formularios recibidos", description: "Solicitudes de cotización y mensajes de contacto.", noindex: true });

export default function AdminFormsPage() {
  return (
    <main id="contenido" className="p-6">
      <h1 className="text-2xl font-bold text-acero-900">Formularios recibidos</h1>
      <p className="mt-2 text-acero-700">Solicitudes de cotización y mensajes de contacto, con sus archivos adjuntos.</p>
    </main>
  );
}
