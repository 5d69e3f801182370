import type { Route } from "./+types/list";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Mis cotizaciones", description: "Sus cotizaciones de Forja.", noindex: true });

export default function QuotesListPage() {
  return (
    <>
      <PageIntro eyebrow="Mi cuenta" title="Mis cotizaciones" lead="Consulte, acepte o rechace las cotizaciones que Forja le envía." />
      <div className="container-page py-10">
        <div className="rounded-lg border border-dashed border-acero-300 p-8 text-center">
          <h2 className="text-lg font-semibold text-acero-900">Aún no tiene cotizaciones</h2>
          <p className="mx-auto mt-2 max-w-xl text-acero-700">
            Cuando nuestro equipo le envíe una cotización aparecerá aquí, con su vigencia, sus partidas y la opción de aceptarla en línea.
          </p>
          <AppLink to="/cotiza" className="btn-primary mt-6">
            Solicitar una cotización
          </AppLink>
        </div>
      </div>
    </>
  );
}
