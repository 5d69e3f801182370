import type { Route } from "./+types/detail";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Cotización", description: "Detalle de su cotización de Forja.", noindex: true });

export default function QuoteDetailPage({ params }: Route.ComponentProps) {
  return <PageIntro eyebrow="Cotización" title={`Cotización ${params.id}`} lead="Partidas, totales con IVA, vigencia y condiciones de su cotización." />;
}
