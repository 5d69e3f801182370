import { Fragment } from "react";
import type { Route } from "./+types/about";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { getAboutPage } from "~/features/site/about-page.server";
import { notFound } from "~/lib/errors";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? pageMeta({ title: loaderData.page.title, description: loaderData.page.description }) : []);

// The `paginas` record «about»: kept like a static page until staff publish a page.
export const handle = liveDataPageHandle("contenido:paginas");

export async function loader({ request }: Route.LoaderArgs) {
  const page = await getAboutPage();
  if (!page) notFound(request);
  return { page };
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const figures =
    page.figures.length > 0 ? (
      <dl className="grid grid-cols-2 gap-6 rounded-xl bg-acero-900 p-8 text-white md:grid-cols-4">
        {page.figures.map((figure) => (
          <div key={figure.etiqueta}>
            <dt className="text-sm text-acero-200">{figure.etiqueta}</dt>
            <dd className="mt-1 text-3xl font-bold">{figure.valor}</dd>
          </div>
        ))}
      </dl>
    ) : null;
  return (
    <>
      <PageIntro eyebrow={page.title} title={page.headline} lead={page.lead || undefined} />
      <div className="container-page space-y-14 py-12">
        {page.sections.length === 0 ? (
          <>
            {figures}
            <AppLink to="/contact" className="btn-secondary">
              Agendar una visita a planta
            </AppLink>
          </>
        ) : null}
        {page.sections.map((section, index) => {
          const headingId = `nosotros-${index + 1}`;
          return (
            <Fragment key={headingId}>
              <section aria-labelledby={section.title ? headingId : undefined} className={section.cards.length > 0 ? undefined : "max-w-3xl"}>
                {section.title ? (
                  <h2 id={headingId} className="text-2xl font-bold text-acero-900">
                    {section.title}
                  </h2>
                ) : null}
                {section.html ? <div className="prose-forja max-w-3xl" dangerouslySetInnerHTML={{ __html: section.html }} /> : null}
                {section.cards.length > 0 ? (
                  <ul className="mt-6 grid gap-5 md:grid-cols-2">
                    {section.cards.map((card) => (
                      <li key={card.title} className="rounded-lg border border-acero-200 p-5">
                        <h3 className="font-semibold text-acero-900">{card.title}</h3>
                        <div className="prose-forja mt-2 [&>:first-child]:mt-0 [&>:last-child]:mb-0" dangerouslySetInnerHTML={{ __html: card.html }} />
                      </li>
                    ))}
                  </ul>
                ) : null}
                {index === page.sections.length - 1 ? (
                  <AppLink to="/contact" className="btn-secondary mt-6">
                    Agendar una visita a planta
                  </AppLink>
                ) : null}
              </section>
              {/* The figures come after the first section, as the page was designed. */}
              {index === 0 ? figures : null}
            </Fragment>
          );
        })}
      </div>
    </>
  );
}
