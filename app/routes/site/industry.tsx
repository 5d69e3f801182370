import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/industry";
import type { loader as industryLayoutLoader } from "./industry-layout";
import { AppLink } from "~/components/ui/app-link";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

const LAYOUT_ID = "routes/site/industry-layout";

export const meta: Route.MetaFunction = ({ matches }) => {
  const data = matches.find((match) => match?.id === LAYOUT_ID)?.loaderData as Awaited<ReturnType<typeof industryLayoutLoader>> | undefined;
  if (!data) return pageMeta({ title: "Industria", description: "Industrias que atiende Forja." });
  return pageMeta({ title: data.industry.title, description: data.industry.description });
};

// Kept like a static page until staff publish an industry or a service (the layout's loader reads both).
export const handle = liveDataPageHandle("contenido:industrias", "contenido:servicios");

export default function IndustryPage() {
  const data = useRouteLoaderData<typeof industryLayoutLoader>(LAYOUT_ID);
  if (!data) return null;
  const { industry } = data;
  const { drawing } = industry;
  return (
    <div className="container-page space-y-14 py-14">
      <section aria-labelledby="retos">
        <h2 id="retos" className="text-2xl font-bold text-acero-900">
          Retos que resolvemos
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-2">
          {industry.challenges.map((challenge) => (
            <li key={challenge.titulo} className="rounded-lg border border-acero-200 p-5">
              <h3 className="font-semibold text-acero-900">{challenge.titulo}</h3>
              <p className="mt-2 text-acero-700">{challenge.texto}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="servicios-industria">
        <h2 id="servicios-industria" className="text-2xl font-bold text-acero-900">
          Servicios que aplican
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-2">
          {industry.services.map((service) => (
            <li key={service.slug} className="rounded-lg bg-acero-50 p-5">
              <AppLink to={`/servicios#${service.slug}`} className="font-semibold text-forja-700 underline underline-offset-2">
                {service.name}
              </AppLink>
              <p className="mt-2 text-acero-800">{service.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <div className="grid gap-8 md:grid-cols-2">
        <section aria-labelledby="materiales">
          <h2 id="materiales" className="text-xl font-bold text-acero-900">
            Materiales frecuentes
          </h2>
          <ul className="mt-4 list-disc space-y-1 pl-5 text-acero-800">
            {industry.materials.map((material) => (
              <li key={material}>{material}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="normas">
          <h2 id="normas" className="text-xl font-bold text-acero-900">
            Normas y requisitos
          </h2>
          <ul className="mt-4 list-disc space-y-1 pl-5 text-acero-800">
            {industry.standards.map((standard) => (
              <li key={standard}>{standard}</li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="ejemplo" className="rounded-xl border border-acero-200 p-6 sm:p-8">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Proyecto de ejemplo</p>
        <h2 id="ejemplo" className="mt-2 text-2xl font-bold text-acero-900">
          {industry.example.title}
        </h2>
        <p className="mt-3 text-acero-800">{industry.example.text}</p>
        <ul className="mt-5 grid gap-3 sm:grid-cols-3">
          {industry.example.figures.map((figure) => (
            <li key={figure} className="rounded-md bg-acero-50 p-4 text-sm font-medium text-acero-900">
              {figure}
            </li>
          ))}
        </ul>
        {drawing ? (
          <figure className="mt-8">
            <img
              src={drawing.src}
              alt={drawing.alt}
              width={drawing.width}
              height={drawing.height}
              loading="lazy"
              decoding="async"
              className="h-auto w-full rounded-md border border-acero-200 bg-white"
            />
            <figcaption className="mt-3 text-sm text-acero-700">
              Dibujo técnico generado a partir del modelo CAD de la pieza.{" "}
              <a href={drawing.src} className="font-semibold text-forja-700 underline underline-offset-2">
                Abrir el dibujo completo
              </a>
            </figcaption>
          </figure>
        ) : null}
      </section>
    </div>
  );
}
