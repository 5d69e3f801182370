import { publishedRecord, publishedRecords } from "~/services/content/published.server";
import { findRedirect } from "~/services/content/redirects.server";
import { renderSiteRichText } from "./rich-text.server";
import { ABOUT_SLUG, paginas, type Pagina } from "./content-collections/paginas";

// Content pages served at /{slug}: the legal texts and any page staff add, read from the content
// store's `paginas` collection (issue 16). The about page is a record there too, shown by its own
// route (/about), so it is left out here.

export interface PublishedPage {
  slug: string;
  title: string;
  description: string;
  html: string;
  updatedAt: Date;
}

/** A published content page by slug, matched without regard to case; null when there is none. */
export async function getPublishedPage(slug: string): Promise<PublishedPage | null> {
  if (slug.toLowerCase() === ABOUT_SLUG) return null;
  const record = await publishedRecord<Pagina>(paginas, slug);
  if (!record) return null;
  const page = record.data;
  return { slug: page.slug, title: page.titulo, description: page.descripcion, html: await renderSiteRichText(page.cuerpo), updatedAt: record.updated };
}

export async function listPublishedPages(): Promise<{ slug: string; updatedAt: Date }[]> {
  const records = await publishedRecords<Pagina>(paginas);
  return records
    .filter((record) => record.data.slug !== ABOUT_SLUG)
    .map((record) => ({ slug: record.data.slug, updatedAt: record.updated }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/** Where an address that moved answers now (a slug staff changed), or null. */
export async function movedTo(pathname: string): Promise<string | null> {
  return findRedirect(pathname);
}
