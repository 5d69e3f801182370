import type { Route } from "./+types/faqs";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { listFaqGroups } from "~/features/site/faqs.server";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Preguntas frecuentes",
    description: "Plazos de entrega, formatos de archivo, confidencialidad, tolerancias, pagos y facturación CFDI, y envíos.",
  });

// Kept by the server like a static page until staff publish content.
export const handle = liveDataPageHandle("contenido:preguntas");

export async function loader() {
  return { faqGroups: await listFaqGroups() };
}

// The accordion is native <details>/<summary>: keyboard-operable and working without JavaScript.
export default function FaqsPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageIntro
        eyebrow="Preguntas frecuentes"
        title="Respuestas antes de cotizar"
        lead="Lo que más nos preguntan sobre plazos, archivos, confidencialidad, tolerancias, pagos y envíos."
      />
      <div className="container-page grid gap-12 py-12 lg:grid-cols-4">
        <nav aria-label="Temas" className="lg:sticky lg:top-24 lg:self-start">
          <ul className="flex flex-wrap gap-2 lg:flex-col">
            {loaderData.faqGroups.map((group, index) => (
              <li key={group.title}>
                <a href={`#tema-${index + 1}`} className="text-sm font-medium text-acero-800 underline-offset-2 hover:text-forja-700 hover:underline">
                  {group.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="space-y-10 lg:col-span-3">
          {loaderData.faqGroups.map((group, index) => (
            <section key={group.title} id={`tema-${index + 1}`} aria-labelledby={`tema-${index + 1}-titulo`} className="scroll-mt-24">
              <h2 id={`tema-${index + 1}-titulo`} className="text-xl font-bold text-acero-900">
                {group.title}
              </h2>
              <div className="mt-4 divide-y divide-acero-200 rounded-lg border border-acero-200">
                {group.items.map((item) => (
                  <details key={item.question} className="group p-4">
                    <summary className="flex cursor-pointer list-none items-start justify-between gap-4 font-semibold text-acero-900 [&::-webkit-details-marker]:hidden">
                      <span>{item.question}</span>
                      <span aria-hidden="true" className="text-forja-700 transition-transform group-open:rotate-45">
                        +
                      </span>
                    </summary>
                    {/* Sanitized on the server (app/lib/rich-text/render.server.ts). */}
                    <div className="prose-forja mt-3 space-y-2 text-acero-800 [&>p]:my-0" dangerouslySetInnerHTML={{ __html: item.answerHtml }} />
                  </details>
                ))}
              </div>
            </section>
          ))}
          <p className="text-acero-800">
            ¿No encontró su respuesta?{" "}
            <AppLink to="/contact" className="font-medium text-forja-700 underline underline-offset-2">
              Escríbanos
            </AppLink>{" "}
            o{" "}
            <AppLink to="/cotiza" className="font-medium text-forja-700 underline underline-offset-2">
              envíe su solicitud de cotización
            </AppLink>
            .
          </p>
        </div>
      </div>
    </>
  );
}
