import type { Route } from "./+types/list";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Mis cotizaciones", description: "Sus cotizaciones de Forja.", noindex: true });

export default function QuotesListPage() {
  return <PageIntro eyebrow="Mi cuenta" title="Mis cotizaciones" lead="Consulte, acepte o rechace las cotizaciones que Forja le envió." />;
}
