import type { Route } from "./+types/cotiza";
import { DirectContact } from "~/components/ui/direct-contact";
import { PageIntro } from "~/components/ui/page-intro";
import { siteConfig } from "~/features/site/site-config";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Solicitar cotización",
    description: "Envíe sus planos o archivos CAD (STEP, IGES, STL, DXF, PDF) y reciba una cotización formal de Forja.",
  });

export default function CotizaPage() {
  return (
    <>
      <PageIntro
        eyebrow="Cotización"
        title="Solicite una cotización"
        lead="Cuéntenos qué necesita fabricar, en qué cantidad y para cuándo. Un ingeniero revisa cada solicitud y le responde con una cotización formal en uno a tres días hábiles."
      />
      <div className="container-page grid gap-8 py-12 lg:grid-cols-3">
        <section aria-labelledby="como-cotizar" className="lg:col-span-2">
          <h2 id="como-cotizar" className="text-xl font-semibold text-acero-900">
            Qué incluir en su solicitud
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-6 text-acero-800">
            <li>Modelo 3D en STEP, IGES, STL, 3MF, OBJ o SLDPRT; planos en PDF, DXF o DWG.</li>
            <li>Cantidad por pedido y, si aplica, volúmenes adicionales para precio por escala.</li>
            <li>Material, acabado y tolerancias. Si requiere tolerancias más estrictas que ISO 2768-m, incluya el plano en PDF.</li>
            <li>Fecha requerida y certificados que necesita (conformidad, RoHS, REACH, reporte dimensional).</li>
          </ul>
          <p className="mt-6 text-acero-800">
            Envíe sus archivos a{" "}
            <a className="font-medium text-forja-700 underline underline-offset-2" href={`mailto:${siteConfig.email}?subject=Solicitud%20de%20cotizaci%C3%B3n`}>
              {siteConfig.email}
            </a>{" "}
            con el asunto «Solicitud de cotización». Si su proyecto es confidencial, pida nuestro acuerdo de confidencialidad antes de enviar planos.
          </p>
        </section>
        <DirectContact />
      </div>
    </>
  );
}
