import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { pages } from "~/db/schema/pages";
import { renderMarkdown } from "~/lib/markdown.server";
import { legalPages } from "./content/legal";

export interface PublishedPage {
  slug: string;
  title: string;
  description: string;
  html: string;
  updatedAt: Date;
}

/** A published content page by slug, matched without regard to case; null when there is none. */
export async function getPublishedPage(slug: string): Promise<PublishedPage | null> {
  const [page] = await getDb()
    .select()
    .from(pages)
    .where(and(eq(sql`lower(${pages.slug})`, slug.toLowerCase()), eq(pages.published, true)))
    .limit(1);
  if (!page) return null;
  return { slug: page.slug, title: page.title, description: page.description, html: renderMarkdown(page.body), updatedAt: page.updatedAt };
}

export async function listPublishedPages(): Promise<{ slug: string; updatedAt: Date }[]> {
  return getDb()
    .select({ slug: pages.slug, updatedAt: pages.updatedAt })
    .from(pages)
    .where(eq(pages.published, true))
    .orderBy(asc(pages.slug));
}

/** Demo content on an empty database; existing rows (perhaps edited by staff) are never touched. */
export async function seedContentPages(): Promise<number> {
  const inserted = await getDb()
    .insert(pages)
    .values(
      legalPages.map((page) => ({
        slug: page.slug,
        title: page.title,
        description: page.description,
        body: page.body,
      })),
    )
    .onConflictDoNothing({ target: pages.slug })
    .returning({ id: pages.id });
  return inserted.length;
}
