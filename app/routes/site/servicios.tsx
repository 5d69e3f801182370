import type { Route } from "./+types/servicios";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { PagePictureView } from "~/features/site/components/page-picture";
import { servicesLead } from "~/features/site/service-name";
import { listServiceSections } from "~/features/site/site-pages.server";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Servicios",
    description: "Diseño industrial, ingeniería CAD, prototipado rápido, maquinado CNC, lámina, moldes de inyección, ingeniería inversa y ensamble por contrato.",
  });

// Kept like a static page until staff publish a service.
export const handle = liveDataPageHandle("contenido:servicios");

export async function loader() {
  return { services: await listServiceSections() };
}

export default function ServicesPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageIntro
        eyebrow="Servicios"
        title="Del concepto a la pieza terminada, en una sola planta"
        lead={servicesLead(loaderData.services.length)}
      >
        <AppLink to="/cotiza" className="btn-primary">
          Solicitar cotización
        </AppLink>
      </PageIntro>
      <nav aria-label="Servicios en esta página" className="container-page pt-8">
        <ul className="flex flex-wrap gap-2">
          {loaderData.services.map((service) => (
            <li key={service.slug}>
              <a href={`#${service.slug}`} className="inline-block rounded-full border border-acero-300 px-3 py-1 text-sm text-acero-800 hover:border-forja-600">
                {service.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="container-page divide-y divide-acero-200">
        {loaderData.services.map((service, index) => (
          <section key={service.slug} id={service.slug} aria-labelledby={`${service.slug}-titulo`} className="grid scroll-mt-24 gap-6 py-12 lg:grid-cols-5">
            <div className="lg:col-span-3">
              <p className="text-sm font-semibold text-forja-700">{String(index + 1).padStart(2, "0")}</p>
              <h2 id={`${service.slug}-titulo`} className="mt-1 text-2xl font-bold text-acero-900">
                {service.name}
              </h2>
              <div className="prose-forja" dangerouslySetInnerHTML={{ __html: service.descriptionHtml }} />
              <AppLink to={`/cotiza?servicio=${service.slug}`} className="btn-secondary mt-5">
                Cotizar {service.nameInSentence}
              </AppLink>
            </div>
            <div className="lg:col-span-2">
              {service.picture ? (
                <PagePictureView
                  picture={service.picture}
                  sizes="(min-width: 1152px) 411px, (min-width: 1024px) calc(40vw - 50px), (min-width: 640px) 448px, calc(100vw - 32px)"
                  eager={index === 0}
                  className="mb-5 h-auto w-full rounded-lg border border-acero-200 sm:max-w-md lg:max-w-none"
                />
              ) : null}
              <div className="rounded-lg bg-acero-50 p-5">
                <h3 className="font-semibold text-acero-900">Capacidades</h3>
                <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-acero-800">
                  {service.capabilities.map((capability) => (
                    <li key={capability}>{capability}</li>
                  ))}
                </ul>
                <p className="mt-4 text-sm font-medium text-acero-900">{service.leadTime}</p>
              </div>
            </div>
          </section>
        ))}
      </div>
    </>
  );
}
