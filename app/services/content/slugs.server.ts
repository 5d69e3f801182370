import { and, eq, ne, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contentEntries } from "~/db/schema/content";
import { invalid, ok, type Result } from "~/lib/result";
import type { ContentData } from "./collection";
import type { AnyContentCollection } from "./registry.server";
import { isReservedPath, normalizePath } from "./reserved-paths.server";
import { slugOf, type EntryRow } from "./rows.server";

// A record's slug is part of a public address: it must not be another record's, nor one of the
// site's own routes, and the slug of a record that always exists never changes.

interface SlugCheckOptions {
  /** Also refuse a slug another record's draft already uses (while saving; a publish compares live records only). */
  includeDrafts: boolean;
}

/** Ok, or the Spanish reason under the slug field. */
export async function checkSlug(collection: AnyContentCollection, current: EntryRow | null, data: ContentData, options: SlugCheckOptions): Promise<Result> {
  const field = collection.slugField;
  const slug = slugOf(collection, data);
  if (!field || !slug) return ok();
  const refuse = (message: string) => invalid({ fieldErrors: { [field]: [message] } });

  if (current?.fixed && current.slug && current.slug.toLowerCase() !== slug.toLowerCase()) {
    return refuse(`Esta dirección no puede cambiar: el sitio siempre la usa. Deje «${current.slug}»; puede editar todo lo demás.`);
  }
  // The record's own address: the path of `paths` that ends in its slug. A fixed record keeping its
  // slug is exempt: its address is one of the site's routes on purpose (the about page at /about).
  const lower = slug.toLowerCase();
  const keepsFixedAddress = current?.fixed === true && current.slug?.toLowerCase() === lower;
  for (const address of keepsFixedAddress ? [] : collection.paths(data)) {
    if (/[#]/.test(address)) continue;
    const path = normalizePath(address);
    if (path.split("/").at(-1) === lower && isReservedPath(path)) {
      return refuse(`La dirección ${path} ya es una página del sitio. Elija otra dirección (slug).`);
    }
  }
  const sameSlug = sql`lower(${contentEntries.slug}) = ${lower}`;
  const sameDraftSlug = sql`lower(${contentEntries.draft} ->> ${field}) = ${lower}`;
  const [taken] = await getDb()
    .select({ id: contentEntries.id })
    .from(contentEntries)
    .where(
      and(
        eq(contentEntries.collection, collection.name),
        current ? ne(contentEntries.id, current.id) : undefined,
        options.includeDrafts ? or(sameSlug, sameDraftSlug) : sameSlug,
      ),
    )
    .limit(1);
  if (taken) return refuse(`Otro registro de ${collection.label.toLowerCase()} ya usa la dirección «${slug}». Elija otra.`);
  return ok();
}
