import type { Route } from "./+types/home";
import { siteFactsOf, useSiteFacts } from "./site-facts";
import { AppLink } from "~/components/ui/app-link";
import { JsonLd } from "~/components/ui/json-ld";
import { PagePictureView } from "~/features/site/components/page-picture";
import { getPublicSiteFacts } from "~/features/site/site-facts.server";
import { getHomePage } from "~/features/site/site-pages.server";
import { localBusinessJsonLd } from "~/features/site/structured-data";
import { getEnv } from "~/lib/env.server";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ matches }) => {
  const facts = siteFactsOf(matches);
  return facts ? pageMeta({ title: facts.name, description: facts.description }) : [];
};

// Kept like a static page until staff publish the home page, a service or an industry.
export const handle = liveDataPageHandle("contenido:inicio", "contenido:servicios", "contenido:industrias");

export async function loader() {
  const [page, facts] = await Promise.all([getHomePage(), getPublicSiteFacts()]);
  return { page, jsonLd: localBusinessJsonLd(getEnv().publicUrl, facts) };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { page, jsonLd } = loaderData;
  const facts = useSiteFacts();
  return (
    <>
      <JsonLd data={jsonLd} />
      <section className="bg-acero-900 text-white">
        <div className="container-page py-16 sm:py-24">
          <div className="grid items-center gap-10 lg:grid-cols-2">
            <div>
              <p className="text-sm font-semibold tracking-wide text-forja-100 uppercase">{facts.tagline}</p>
              <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">{page.headline}</h1>
              <p className="mt-5 max-w-2xl text-lg text-acero-100">{page.subheadline}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                <AppLink to="/cotiza" className="btn-primary">
                  Solicitar cotización
                </AppLink>
                <AppLink to="/servicios" className="btn border border-acero-300 text-white hover:bg-acero-800">
                  Ver servicios
                </AppLink>
              </div>
            </div>
            {page.hero ? (
              <PagePictureView
                picture={page.hero}
                sizes="(min-width: 1152px) 524px, (min-width: 1024px) calc(50vw - 52px), (min-width: 640px) calc(100vw - 48px), calc(100vw - 32px)"
                priority
                className="h-auto w-full rounded-xl ring-1 ring-acero-700"
              />
            ) : null}
          </div>
          <dl className="mt-12 grid grid-cols-2 gap-6 border-t border-acero-700 pt-8 sm:grid-cols-4">
            {page.figures.map((figure) => (
              <div key={figure.etiqueta}>
                <dt className="text-sm text-acero-200">{figure.etiqueta}</dt>
                <dd className="mt-1 text-3xl font-bold text-white">{figure.valor}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="servicios" className="container-page py-16">
        <h2 id="servicios" className="text-2xl font-bold text-acero-900 sm:text-3xl">
          Servicios
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {page.services.map((service) => (
            <li key={service.slug} className="overflow-hidden rounded-lg border border-acero-200">
              {service.picture ? (
                <PagePictureView
                  picture={service.picture}
                  sizes="(min-width: 1152px) 260px, (min-width: 1024px) calc(25vw - 28px), (min-width: 640px) calc(50vw - 32px), calc(100vw - 32px)"
                  className="h-auto w-full border-b border-acero-200"
                />
              ) : null}
              <div className="p-5">
                <h3 className="font-semibold text-acero-900">
                  <AppLink to={`/servicios#${service.slug}`} className="hover:text-forja-700">
                    {service.name}
                  </AppLink>
                </h3>
                <p className="mt-2 text-sm text-acero-700">{service.summary}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="industrias" className="bg-acero-50">
        <div className="container-page py-16">
          <h2 id="industrias" className="text-2xl font-bold text-acero-900 sm:text-3xl">
            Industrias que atendemos
          </h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            {page.industries.map((industry) => (
              <li key={industry.slug}>
                <AppLink
                  to={industry.path}
                  className="block h-full rounded-lg border border-acero-200 bg-white p-4 font-semibold text-acero-900 hover:border-forja-600"
                >
                  {industry.name}
                </AppLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="proceso" className="container-page py-16">
        <h2 id="proceso" className="text-2xl font-bold text-acero-900 sm:text-3xl">
          Cómo trabajamos
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-4">
          {page.steps.map((step, index) => (
            <li key={step.titulo} className="rounded-lg border border-acero-200 p-5">
              <span className="grid size-9 place-items-center rounded-full bg-forja-600 font-bold text-white" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold text-acero-900">{step.titulo}</h3>
              <p className="mt-2 text-sm text-acero-700">{step.texto}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="por-que" className="bg-acero-50">
        <div className="container-page py-16">
          <h2 id="por-que" className="text-2xl font-bold text-acero-900 sm:text-3xl">
            Por qué {facts.shortName}
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {page.reasons.map((reason) => (
              <li key={reason.titulo}>
                <h3 className="font-semibold text-acero-900">{reason.titulo}</h3>
                <p className="mt-2 text-acero-700">{reason.texto}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta" className="container-page py-16">
        <div className="rounded-xl bg-forja-700 p-8 text-white sm:p-12">
          <h2 id="cta" className="text-2xl font-bold sm:text-3xl">
            ¿Tiene un plano o un modelo 3D?
          </h2>
          <p className="mt-3 max-w-2xl text-forja-50">
            Envíelo con su solicitud y reciba una cotización formal con precio, plazo y condiciones. Firmamos acuerdo de confidencialidad si lo requiere.
          </p>
          <AppLink to="/cotiza" className="btn mt-6 bg-white text-forja-700 hover:bg-forja-50">
            Cotizar mi proyecto
          </AppLink>
        </div>
      </section>
    </>
  );
}
