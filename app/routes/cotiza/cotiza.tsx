import { data, redirect } from "react-router";
import type { Route } from "./+types/cotiza";
import { DirectContact } from "~/components/ui/direct-contact";
import { PageIntro } from "~/components/ui/page-intro";
import { getSessionUser } from "~/features/accounts/index.server";
import { useOwnDetails } from "~/features/accounts/own-details";
import { QuoteRequestForm } from "~/features/solicitudes/components/quote-request-form";
import { INDUSTRY_OPTIONS, SERVICE_OPTIONS } from "~/features/solicitudes/forms";
import { publicFormPageHandle } from "~/lib/page-cache";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { issueSolicitudToken, submitSolicitud } from "./submit-solicitud.server";
import { useSiteFacts } from "../site/site-facts";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Solicitar cotización",
    description: "Envíe sus planos o archivos CAD (STEP, IGES, STL, DXF, PDF) y reciba una cotización formal de Forja en uno a tres días hábiles.",
  });

const known = (options: readonly { value: string }[], value: string | null) => (value && options.some((option) => option.value === value) ? value : undefined);

// Served from the page cache like the other public pages, rendered again every hour: its token is
// the same for everyone in that hour; each browser adds its own nonce (docs/decisions/0031). The
// page cache renders it without cookies, so a signed-in visitor's details are in the HTML only on a
// page rendered for them (a link with ?servicio= or ?industria=, or a navigation in the app); on
// the cached page the browser fills the empty fields after hydration (useOwnDetails).
export const handle = publicFormPageHandle;
export const headers = formHeaders;
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(requestMeta(request, context));
  return {
    formToken: issueSolicitudToken("cotizacion"),
    defaults: {
      industry: known(INDUSTRY_OPTIONS, url.searchParams.get("industria")),
      service: known(SERVICE_OPTIONS, url.searchParams.get("servicio")),
      name: user?.name,
      email: user?.email,
      company: user?.company ?? undefined,
      phone: user?.phone ?? undefined,
    },
  };
}

// Without JavaScript the form posts here (multipart); with JavaScript it goes to /api/cotiza to show progress.
export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitSolicitud(requestMeta(request, context), "cotizacion");
  if (result.ok) throw redirect(`/cotiza/enviada?folio=${encodeURIComponent(result.number)}`);
  return data({ result: result.result, formToken: result.formToken }, { status: result.status, headers: result.headers });
}

export default function CotizaPage({ loaderData, actionData }: Route.ComponentProps) {
  const own = useOwnDetails();
  const facts = useSiteFacts();
  return (
    <>
      <PageIntro
        eyebrow="Cotización"
        title="Solicite una cotización"
        lead="Cuéntenos qué necesita fabricar, en qué cantidad y para cuándo. Un ingeniero revisa cada solicitud y le responde con una cotización formal en uno a tres días hábiles."
      />
      <div className="container-page grid gap-10 py-12 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <QuoteRequestForm
            formToken={actionData?.formToken ?? loaderData.formToken}
            lastResult={actionData?.result}
            defaults={loaderData.defaults}
            fill={own && { name: own.name, email: own.email, company: own.company, phone: own.phone }}
            privacyHref="/aviso-de-privacidad"
          />
        </div>
        <aside className="space-y-6">
          <DirectContact facts={facts} heading="¿Prefiere hablar con un ingeniero?" />
          <section aria-labelledby="que-sigue" className="rounded-lg bg-acero-50 p-6">
            <h2 id="que-sigue" className="text-lg font-semibold text-acero-900">
              Qué sigue
            </h2>
            <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-acero-800">
              <li>Recibe un correo con su número de solicitud (SOL-…).</li>
              <li>Un ingeniero revisa sus archivos y, si falta algo, le escribe el mismo día.</li>
              <li>Le enviamos la cotización formal con precio, plazo y condiciones; la acepta en línea.</li>
            </ol>
          </section>
        </aside>
      </div>
    </>
  );
}
