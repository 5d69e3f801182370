import type { Route } from "./+types/catalogo";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Catálogo",
    description: "Soportes, bridas, bujes, gabinetes de lámina, placas de montaje y refacciones estándar fabricadas por Forja. Precios con IVA incluido.",
  });

export default function CatalogoPage() {
  return (
    <PageIntro
      eyebrow="Catálogo"
      title="Piezas estándar listas para pedir"
      lead="Soportes y escuadras de acero, bridas maquinadas, bujes de bronce, gabinetes de lámina y refacciones con precio en MXN e IVA incluido. Para piezas a la medida, solicite una cotización."
    >
      <AppLink to="/cotiza" className="btn-primary">
        Cotizar una pieza a la medida
      </AppLink>
    </PageIntro>
  );
}
