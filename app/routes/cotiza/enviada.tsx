import type { Route } from "./+types/enviada";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { useSession } from "~/features/accounts/session-store";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Solicitud recibida", description: "Recibimos su solicitud de cotización.", noindex: true });

export function loader({ request }: Route.LoaderArgs) {
  const folio = new URL(request.url).searchParams.get("folio") ?? "";
  return { folio: /^SOL-\d{4}-\d{4,}$/.test(folio) ? folio : null };
}

export default function QuoteSentPage({ loaderData }: Route.ComponentProps) {
  // As the header knows it: the server's answer (this page is rendered per request), then the browser's.
  const signedIn = useSession().status === "signed-in";
  return (
    <>
      <PageIntro
        eyebrow="Solicitud recibida"
        title={loaderData.folio ? `Recibimos su solicitud ${loaderData.folio}` : "Recibimos su solicitud"}
        lead="Gracias. Le enviamos un correo de confirmación con su número de solicitud."
      />
      <div className="container-page max-w-3xl py-10">
        <h2 className="text-xl font-semibold text-acero-900">Qué sigue</h2>
        <ol className="mt-4 list-decimal space-y-3 pl-6 text-acero-800">
          <li>Un ingeniero revisa sus archivos y la información de su proyecto. Si falta algo, le escribimos el mismo día hábil.</li>
          <li>En uno a tres días hábiles recibe la cotización formal por correo, con precio con IVA, plazo de entrega y vigencia.</li>
          <li>La acepta o la comenta en línea desde «Mis cotizaciones», con una cuenta creada con el mismo correo.</li>
        </ol>
        <div className="mt-8 flex flex-wrap gap-3">
          {/* A signed-in customer already has the account: the link goes to their quotes instead. */}
          {signedIn ? (
            <AppLink to="/quotes" className="btn-primary">
              Ver mis cotizaciones
            </AppLink>
          ) : (
            <AppLink to="/registro?redirectTo=%2Fquotes" className="btn-primary">
              Crear mi cuenta
            </AppLink>
          )}
          <AppLink to="/servicios" className="btn-secondary">
            Ver servicios
          </AppLink>
        </div>
      </div>
    </>
  );
}
