import { redirect } from "react-router";
import type { Route } from "./+types/content-page";
import { PageIntro } from "~/components/ui/page-intro";
import { getPublishedPage, movedTo } from "~/features/site/pages.server";
import { notFound } from "~/lib/errors";
import { formatDate } from "~/lib/format";
import { liveDataPageHandle } from "~/lib/page-cache";
import { pageMeta } from "~/lib/seo";

// Kept by the server like a static page while no content is published; a publish renders it again.
export const handle = liveDataPageHandle("contenido:paginas", "contenido:redirecciones");

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? pageMeta({ title: loaderData.page.title, description: loaderData.page.description || loaderData.page.title }) : [];

export async function loader({ params, request }: Route.LoaderArgs) {
  const page = await getPublishedPage(params.slug);
  if (!page) {
    // An address whose slug staff changed answers where the page is now.
    const target = await movedTo(new URL(request.url).pathname);
    if (target) throw redirect(target, 301);
    notFound(request);
  }
  if (page.slug !== params.slug) throw redirect(`/${page.slug}`, 301);
  return { page };
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <>
      <PageIntro title={page.title} lead={<p className="text-sm">Última actualización: {formatDate(page.updatedAt)}</p>} />
      <article className="prose-forja container-page max-w-3xl py-10" dangerouslySetInnerHTML={{ __html: page.html }} />
    </>
  );
}
