import type { z } from "zod";

// What a content collection is (issue 16, docs/decisions/0037): the fields staff edit, the rules a
// record must pass, the demo content it starts with and the public addresses that show it. The
// collections themselves (ajustes, servicios, industrias, …) are defined by the site feature; this
// service stores, versions and publishes any of them without knowing their words. Shipped to the
// browser too (the editor renders its forms from `fields`), so no server code here.

export type ContentFieldKind =
  /** one line of plain text */
  | "text"
  /** several lines of plain text */
  | "textarea"
  /** rich text: the editor's JSON document, rendered to sanitized HTML on the server */
  | "richtext"
  | "number"
  | "boolean"
  /** lowercase words joined by hyphens; part of the record's public address */
  | "slug"
  | "email"
  | "phone"
  /** a list of one-line texts */
  | "list"
  /** a list of small records, each with the `items` fields */
  | "items"
  /** an image from the media library (its id) */
  | "media";

export interface ContentField {
  /** API and storage name, Spanish as in the issue: "titular", "publicado". */
  name: string;
  /** The editor's label, es-MX. */
  label: string;
  kind: ContentFieldKind;
  /** A sentence under the field in the editor. */
  help?: string;
  required?: boolean;
  /** The fields of each item, for kind "items". */
  items?: readonly ContentField[];
  /** The copy checks of the editor: search-result title or description length. */
  seo?: "title" | "description";
}

export type ContentData = Record<string, unknown>;

export interface ContentCollection<T extends ContentData = ContentData> {
  /** The record API's collection name: "servicios". */
  name: string;
  /** Plural and singular for the editor: "Servicios", "servicio". */
  label: string;
  singular: string;
  /** "admin": only admins read and write it (ajustes); "public": anyone reads what is published, editors and admins write. */
  access: "public" | "admin";
  /** Exactly one record (ajustes, inicio). */
  singleton: boolean;
  /** The field that names the record in its address, when it has one. */
  slugField?: keyof T & string;
  fields: readonly ContentField[];
  /** The whole record's rules, with Spanish messages; the editor and the record API both use it. */
  schema: z.ZodType<T>;
  /** Today's demo content, loaded once on an empty database. */
  seed: () => readonly T[];
  /** Slugs of records that always exist and cannot be deleted (the ten industries). */
  fixedSlugs?: readonly string[];
  /** Whether a published record is shown to the public (its `publicado` flag, where it has one). */
  isPublic: (data: T) => boolean;
  /** The public addresses that show this record: what a publish invalidates and where a preview opens. */
  paths: (data: T) => string[];
  /** Listing order for pages and the editor. */
  compare?: (a: T, b: T) => number;
}

/** Who does something to content, for history and locks. */
export interface ContentActor {
  id: string;
  name: string;
}
