import { getDb, withTransaction } from "~/db/client.server";
import { contentEntries, contentSeeds, contentVersions } from "~/db/schema/content";
import { logger } from "~/lib/logger.server";
import { listCollections, type AnyContentCollection } from "./registry.server";
import { slugOf, SYSTEM_ACTOR, validateData } from "./rows.server";

// The demo content is loaded ONCE per collection, on a database that never had it: the
// content_seeds row is written in the same transaction as the records, so a later start (or a
// second process starting at the same moment) never re-inserts, overwrites or revives what staff
// changed, renamed or deleted.

/** Loads the demo content of every registered collection not yet seeded; answers the names it seeded. */
export async function seedContent(now: Date = new Date()): Promise<string[]> {
  const seeded: string[] = [];
  for (const collection of listCollections()) {
    if (await seedCollection(collection, now)) seeded.push(collection.name);
  }
  if (seeded.length) logger.info({ collections: seeded }, "content seeded");
  return seeded;
}

async function seedCollection(collection: AnyContentCollection, now: Date): Promise<boolean> {
  return withTransaction(async () => {
    // Claims the collection: a concurrent start waits here on the primary key, then finds it taken.
    const claimed = await getDb().insert(contentSeeds).values({ collection: collection.name, seededAt: now }).onConflictDoNothing().returning();
    if (claimed.length === 0) return false;
    const fixed = new Set((collection.fixedSlugs ?? []).map((slug) => slug.toLowerCase()));
    for (const record of collection.seed()) {
      const valid = validateData(collection, record);
      if (!valid.ok) throw new Error(`The demo content of ${collection.name} breaks its rules: ${JSON.stringify(valid)}`);
      const slug = slugOf(collection, valid.value);
      const [entry] = await getDb()
        .insert(contentEntries)
        .values({
          collection: collection.name,
          slug,
          published: valid.value,
          publishedAt: now,
          publishedBy: SYSTEM_ACTOR.id,
          publishedByName: SYSTEM_ACTOR.name,
          version: 1,
          fixed: collection.singleton || (slug !== null && fixed.has(slug.toLowerCase())),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: contentEntries.id });
      await getDb()
        .insert(contentVersions)
        .values({ entryId: entry!.id, number: 1, data: valid.value, publishedAt: now, publishedBy: SYSTEM_ACTOR.id, publishedByName: SYSTEM_ACTOR.name });
    }
    return true;
  });
}
