import type { ContentCollection, ContentData } from "./collection";

// The collections the store knows. The site feature registers its collections at start; the
// store then keeps, versions and publishes their records without knowing their fields.

// Records of any shape: a collection's type parameter is both read and written, so no narrower
// common type exists.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyContentCollection = ContentCollection<any>;

/** A collection by name, or the collection itself (its record type then flows to the answer). */
export type CollectionRef<T extends ContentData = ContentData> = string | ContentCollection<T>;

// On globalThis so the dev server's module reloads share one registry.
const holder = globalThis as typeof globalThis & { __forjaContentCollections?: Map<string, AnyContentCollection> };
const collections = (holder.__forjaContentCollections ??= new Map());

/** Registers collections (a collection registered again under its name replaces the earlier one). */
export function registerCollections(list: readonly AnyContentCollection[]): void {
  const names = new Set<string>();
  for (const collection of list) {
    if (!/^[a-z][a-z0-9_]*$/.test(collection.name)) throw new Error(`Content collection name must be lowercase letters, digits and _: ${collection.name}`);
    if (names.has(collection.name)) throw new Error(`Content collection registered twice: ${collection.name}`);
    names.add(collection.name);
  }
  for (const collection of list) collections.set(collection.name, collection);
}

export function getCollection(name: string): AnyContentCollection | undefined {
  return collections.get(name);
}

export function listCollections(): AnyContentCollection[] {
  return [...collections.values()];
}

/** The collection itself, or the registered one by name (an unknown name is a programming error). */
export function requireCollection<T extends ContentData>(ref: CollectionRef<T>): ContentCollection<T> {
  if (typeof ref !== "string") return ref;
  const collection = collections.get(ref);
  if (!collection) throw new Error(`Unknown content collection: ${ref}`);
  return collection as ContentCollection<T>;
}
