import type { Route } from "./+types/industrias";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { PagePictureView } from "~/features/site/components/page-picture";
import { listIndustryCards } from "~/features/site/site-pages.server";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Industrias",
    description: "Diseño y manufactura para diez sectores: aeroespacial, agrícola, alimentos y bebidas, automotriz, construcción, electrónica, energía, industria general, médico y minería.",
  });

// Kept like a static page until staff publish an industry.
export const handle = liveDataPageHandle("contenido:industrias");

export async function loader() {
  return { industries: await listIndustryCards() };
}

export default function IndustriesPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageIntro
        eyebrow="Industrias"
        title="Conocemos las normas y los materiales de su sector"
        lead="Cada industria pide algo distinto: trazabilidad, diseño sanitario, resistencia al desgaste o documentación PPAP. Estos son los sectores que atendemos todos los días."
      />
      <ul className="container-page grid gap-6 py-12 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.industries.map((industry, index) => (
          <li key={industry.slug} className="flex flex-col overflow-hidden rounded-lg border border-acero-200">
            {industry.picture ? (
              <PagePictureView
                picture={industry.picture}
                sizes="(min-width: 1152px) 347px, (min-width: 1024px) calc(33vw - 37px), (min-width: 640px) calc(50vw - 36px), calc(100vw - 32px)"
                eager={index < 3}
                className="h-auto w-full border-b border-acero-200"
              />
            ) : null}
            <div className="flex flex-1 flex-col p-6">
              <h2 className="text-xl font-semibold text-acero-900">{industry.name}</h2>
              <p className="mt-2 flex-1 text-acero-700">{industry.summary}</p>
              <AppLink to={industry.path} className="mt-4 font-semibold text-forja-700 underline underline-offset-2">
                Más sobre {industry.sectorPhrase}
              </AppLink>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
