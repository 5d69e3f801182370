import type { Route } from "./+types/contact-sent";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Mensaje recibido", description: "Recibimos su mensaje.", noindex: true });

export function loader({ request }: Route.LoaderArgs) {
  const folio = new URL(request.url).searchParams.get("folio") ?? "";
  return { folio: /^SOL-\d{4}-\d{4,}$/.test(folio) ? folio : null };
}

export default function ContactSentPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageIntro
      eyebrow="Mensaje recibido"
      title={loaderData.folio ? `Recibimos su mensaje ${loaderData.folio}` : "Recibimos su mensaje"}
      lead="Gracias por escribirnos. Le enviamos una confirmación por correo y le responderemos en horario de planta, normalmente el mismo día hábil."
    >
      <AppLink to="/" className="btn-secondary">
        Volver al inicio
      </AppLink>
      <AppLink to="/cotiza" className="btn-primary">
        Solicitar una cotización
      </AppLink>
    </PageIntro>
  );
}
