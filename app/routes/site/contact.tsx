import { data, redirect } from "react-router";
import type { Route } from "./+types/contact";
import { AppLink } from "~/components/ui/app-link";
import { DirectContact } from "~/components/ui/direct-contact";
import { PageIntro } from "~/components/ui/page-intro";
import { useOwnDetails } from "~/features/accounts/own-details";
import { ContactForm } from "~/features/solicitudes/components/contact-form";
import { publicFormPageHandle } from "~/lib/page-cache";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { issueSolicitudToken, submitSolicitud } from "../cotiza/submit-solicitud.server";
import { siteFactsOf, useSiteFacts } from "./site-facts";

export const meta: Route.MetaFunction = ({ matches }) => {
  const facts = siteFactsOf(matches);
  return pageMeta({
    title: "Contacto",
    description: `Escríbanos o llame a la planta de ${facts?.shortName ?? "Forja"}${facts ? ` en ${facts.address.localityLine}` : ""}: teléfono, WhatsApp, correo, horario y dirección.`,
  });
};

// Cached like /cotiza: one token per hour for everyone, a nonce per browser, and a signed-in
// customer's name, email and phone filled in by the browser (docs/decisions/0031).
export const handle = publicFormPageHandle;
export const headers = formHeaders;
export function loader() {
  return { formToken: issueSolicitudToken("contacto") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitSolicitud(requestMeta(request, context), "contacto");
  if (result.ok) throw redirect(`/contact/enviado?folio=${encodeURIComponent(result.number)}`);
  return data({ result: result.result, formToken: result.formToken }, { status: result.status, headers: result.headers });
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const own = useOwnDetails();
  const facts = useSiteFacts();
  return (
    <>
      <PageIntro
        eyebrow="Contacto"
        title="Hable con un ingeniero de Forja"
        lead="Respondemos en horario de planta el mismo día hábil. Si ya tiene planos o archivos CAD, la forma más rápida es solicitar una cotización en línea."
      >
        <AppLink to="/cotiza" className="btn-primary">
          Solicitar cotización
        </AppLink>
        <a href={facts.whatsapp.url} target="_blank" rel="noopener noreferrer" className="btn-secondary">
          Escribir por WhatsApp
        </a>
      </PageIntro>
      <div className="container-page grid gap-10 py-12 lg:grid-cols-5">
        <section aria-labelledby="escribanos" className="lg:col-span-3">
          <h2 id="escribanos" className="text-xl font-semibold text-acero-900">
            Escríbanos
          </h2>
          <div className="mt-5">
            <ContactForm
              formToken={actionData?.formToken ?? loaderData.formToken}
              lastResult={actionData?.result}
              fill={own && { name: own.name, email: own.email, phone: own.phone }}
              privacyHref="/aviso-de-privacidad"
            />
          </div>
        </section>
        <div className="space-y-6 lg:col-span-2">
          <DirectContact facts={facts} heading="Datos de contacto" />
          <section aria-labelledby="visita" className="rounded-lg border border-acero-200 bg-white p-6">
            <h2 id="visita" className="text-lg font-semibold text-acero-900">
              Visitas a planta
            </h2>
            <p className="mt-3 text-acero-800">
              Con gusto le mostramos el área de maquinado, lámina e inyección. Agende su visita con un día hábil de anticipación y traiga una
              identificación oficial para el acceso al parque industrial.
            </p>
            <p className="mt-3 text-acero-800">Para recoger pedidos, la ventanilla de embarques atiende {facts.hours.inSentence}.</p>
          </section>
        </div>
      </div>
    </>
  );
}
