import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/industry-layout";
import { AppLink } from "~/components/ui/app-link";
import { PagePictureView } from "~/features/site/components/page-picture";
import { getIndustryPage } from "~/features/site/site-pages.server";
import { notFound } from "~/lib/errors";

// Industry layout: the industry's hero, the page, then the other industries and a call to action.
// Its page (industry.tsx) carries the cache handle: both read the `industrias` and `servicios` records.
export async function loader({ params, request }: Route.LoaderArgs) {
  const slug = params.industry ?? "";
  const industry = await getIndustryPage(slug);
  if (!industry) notFound(request);
  // Slugs are lowercase; /industrias-design/Medica is the same page under its canonical address.
  if (industry.slug !== slug) throw redirect(`/industrias-design/${industry.slug}${new URL(request.url).search}`, 301);
  return { industry };
}

export default function IndustryLayout({ loaderData }: Route.ComponentProps) {
  const { industry } = loaderData;
  const { picture, others } = industry;
  return (
    <>
      <section className="bg-acero-900 text-white">
        <div className="container-page grid items-center gap-10 py-14 sm:py-20 lg:grid-cols-5">
          <div className="lg:col-span-3">
            <p className="text-sm font-semibold tracking-wide text-forja-100 uppercase">
              <AppLink to="/industrias" className="underline-offset-2 hover:underline">
                Industrias
              </AppLink>{" "}
              / {industry.name}
            </p>
            <h1 className="mt-3 max-w-3xl text-3xl font-bold tracking-tight sm:text-5xl">{industry.headline}</h1>
            <div
              className="mt-5 max-w-2xl space-y-3 text-lg text-acero-100 [&_a]:underline [&_a]:underline-offset-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_strong]:text-white [&_ul]:list-disc [&_ul]:pl-6"
              dangerouslySetInnerHTML={{ __html: industry.introHtml }}
            />
            <AppLink to={`/cotiza?industria=${industry.slug}`} className="btn-primary mt-8">
              Cotizar {industry.projectPhrase}
            </AppLink>
          </div>
          {picture ? (
            <div className="lg:col-span-2">
              <PagePictureView
                picture={picture}
                sizes="(min-width: 1152px) 416px, (min-width: 1024px) calc(40vw - 45px), (min-width: 640px) 448px, calc(100vw - 32px)"
                priority
                className="h-auto w-full rounded-xl ring-1 ring-acero-700 sm:max-w-md lg:max-w-none"
              />
            </div>
          ) : null}
        </div>
      </section>
      <Outlet />
      <section aria-labelledby="cta-industria" className="container-page pb-4">
        <div className="rounded-xl bg-forja-700 p-8 text-white sm:p-10">
          <h2 id="cta-industria" className="text-2xl font-bold">
            Cuéntenos su proyecto
          </h2>
          <p className="mt-2 max-w-2xl text-forja-50">
            Adjunte sus planos o modelos 3D; su solicitud nos llega ya clasificada en {industry.sectorPhrase}.
          </p>
          <AppLink to={`/cotiza?industria=${industry.slug}`} className="btn mt-5 bg-white text-forja-700 hover:bg-forja-50">
            Solicitar cotización
          </AppLink>
        </div>
      </section>
      <nav aria-labelledby="otras-industrias" className="container-page py-12">
        <h2 id="otras-industrias" className="text-lg font-semibold text-acero-900">
          Otras industrias
        </h2>
        <ul className="mt-4 flex flex-wrap gap-2">
          {others.map((other) => (
            <li key={other.slug}>
              <AppLink
                to={other.path}
                className="inline-block rounded-full border border-acero-300 px-4 py-2 text-sm text-acero-800 hover:border-forja-600"
              >
                {other.name}
              </AppLink>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
