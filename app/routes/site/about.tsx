import type { Route } from "./+types/about";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { about } from "~/features/site/content/about";
import { publicPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Nosotros",
    description: "Forja diseña y fabrica en Querétaro desde 2015: ingeniería, maquinado, lámina, moldes, inyección y ensamble bajo un mismo techo.",
  });

export const handle = publicPageHandle;

export function loader() {
  return { about };
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { about } = loaderData;
  return (
    <>
      <PageIntro eyebrow="Nosotros" title={about.headline} lead={about.intro[0]} />
      <div className="container-page space-y-14 py-12">
        <section aria-labelledby="historia" className="max-w-3xl">
          <h2 id="historia" className="text-2xl font-bold text-acero-900">
            Nuestra historia
          </h2>
          {about.intro.slice(1).map((paragraph) => (
            <p key={paragraph} className="mt-3 text-acero-800">
              {paragraph}
            </p>
          ))}
        </section>

        <dl className="grid grid-cols-2 gap-6 rounded-xl bg-acero-900 p-8 text-white md:grid-cols-4">
          {about.figures.map((figure) => (
            <div key={figure.label}>
              <dt className="text-sm text-acero-200">{figure.label}</dt>
              <dd className="mt-1 text-3xl font-bold">{figure.value}</dd>
            </div>
          ))}
        </dl>

        <section aria-labelledby="valores">
          <h2 id="valores" className="text-2xl font-bold text-acero-900">
            Cómo trabajamos
          </h2>
          <ul className="mt-6 grid gap-5 md:grid-cols-2">
            {about.values.map((value) => (
              <li key={value.title} className="rounded-lg border border-acero-200 p-5">
                <h3 className="font-semibold text-acero-900">{value.title}</h3>
                <p className="mt-2 text-acero-700">{value.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="planta" className="max-w-3xl">
          <h2 id="planta" className="text-2xl font-bold text-acero-900">
            La planta
          </h2>
          {about.plant.map((paragraph) => (
            <p key={paragraph} className="mt-3 text-acero-800">
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="equipo" className="max-w-3xl">
          <h2 id="equipo" className="text-2xl font-bold text-acero-900">
            Equipo y calidad
          </h2>
          {about.team.map((paragraph) => (
            <p key={paragraph} className="mt-3 text-acero-800">
              {paragraph}
            </p>
          ))}
          <AppLink to="/contact" className="btn-secondary mt-6">
            Agendar una visita a planta
          </AppLink>
        </section>
      </div>
    </>
  );
}
