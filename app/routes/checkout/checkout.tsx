import type { Route } from "./+types/checkout";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Finalizar compra", description: "Datos de entrega, facturación CFDI y pago de su pedido.", noindex: true });

export default function CheckoutPage() {
  return (
    <PageIntro
      eyebrow="Compra"
      title="Finalizar compra"
      lead="Aquí confirma la entrega, los datos de facturación CFDI y el pago por transferencia SPEI. Su carrito está vacío por ahora."
    >
      <AppLink to="/catalogo" className="btn-primary">
        Ver el catálogo
      </AppLink>
    </PageIntro>
  );
}
