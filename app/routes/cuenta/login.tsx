import type { Route } from "./+types/login";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Iniciar sesión", description: "Entre a su cuenta de Forja para ver y aceptar sus cotizaciones.", noindex: true });

export default function LoginPage() {
  return (
    <PageIntro
      eyebrow="Mi cuenta"
      title="Iniciar sesión"
      lead="Con su cuenta consulta sus cotizaciones, las acepta o rechaza en línea y da seguimiento a sus pedidos. Mientras tanto, su ejecutivo le envía cada cotización por correo."
    >
      <AppLink to="/cotiza" className="btn-primary">
        Solicitar cotización
      </AppLink>
    </PageIntro>
  );
}
