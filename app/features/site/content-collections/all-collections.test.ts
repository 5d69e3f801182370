import { describe, expect, it } from "vitest";
import type { ContentField } from "~/services/content/collection";
import { z } from "~/lib/zod";
import { siteContentCollections } from "./all-collections";

// Every collection against the contract: its seed passes its own rules, its fields are its
// schema's, and a record that says nothing is refused field by field, in Spanish.

/** zod's own English messages ("Invalid input: expected string, received undefined", "Required", …). */
const ENGLISH = /\b(invalid|expected|received|required|must|too (big|small)|unrecognized)\b/i;

/** The fields of an object schema (zod 4 keeps refinements on the object itself, shape included). */
function schemaKeys(schema: z.ZodType): string[] {
  expect(schema).toBeInstanceOf(z.ZodObject);
  return Object.keys((schema as z.ZodObject).shape);
}

describe("the site's content collections", () => {
  it("are the eight of issue 16 but medios (the media library's table, docs/decisions/0050), each named once", () => {
    expect(siteContentCollections.map((collection) => collection.name).sort()).toEqual(
      ["ajustes", "industrias", "inicio", "paginas", "preguntas", "redirecciones", "servicios"],
    );
  });

  for (const collection of siteContentCollections) {
    describe(collection.name, () => {
      const seed = collection.seed();

      it("has a seed that passes its own schema unchanged", () => {
        for (const record of seed) {
          const result = collection.schema.safeParse(record);
          expect(result.success ? [] : result.error.issues, JSON.stringify(record).slice(0, 120)).toEqual([]);
          expect(result.data).toEqual(record);
        }
        if (collection.singleton) expect(seed).toHaveLength(1);
      });

      it("lists exactly its schema's fields, with Spanish labels", () => {
        expect(collection.fields.map((field) => field.name).sort()).toEqual(schemaKeys(collection.schema).sort());
        const all = (fields: readonly ContentField[]): ContentField[] => fields.flatMap((field) => [field, ...all(field.items ?? [])]);
        for (const field of all(collection.fields)) {
          expect(field.label.trim(), field.name).not.toBe("");
          expect(field.label, field.name).not.toMatch(ENGLISH);
          if (field.kind === "items") expect(field.items?.length, field.name).toBeGreaterThan(0);
        }
      });

      it("refuses a record without data, with a Spanish message for each required field", () => {
        const result = collection.schema.safeParse({});
        expect(result.success).toBe(false);
        const issues = result.success ? [] : result.error.issues;
        for (const field of collection.fields.filter((field) => field.required)) {
          const issue = issues.find((candidate) => candidate.path[0] === field.name);
          expect(issue?.message, field.name).toBeTruthy();
          expect(issue!.message, field.name).not.toMatch(ENGLISH);
        }
      });

      it("refuses every field of the wrong type in Spanish", () => {
        const wrong = Object.fromEntries(collection.fields.map((field) => [field.name, field.kind === "number" || field.kind === "boolean" ? "x" : 42]));
        const result = collection.schema.safeParse(wrong);
        expect(result.success).toBe(false);
        for (const issue of result.success ? [] : result.error.issues) expect(issue.message, issue.path.join(".")).not.toMatch(ENGLISH);
      });

      it("gives each seeded slug once, its fixed slugs included, and addresses that start with /", () => {
        if (collection.slugField) {
          const slugs = seed.map((record) => String(record[collection.slugField!]));
          expect(new Set(slugs).size).toBe(slugs.length);
          for (const fixed of collection.fixedSlugs ?? []) expect(slugs).toContain(fixed);
        }
        for (const record of seed) {
          expect(collection.isPublic(record)).toBe(true);
          for (const path of collection.paths(record)) expect(path).toMatch(/^\/(?!\/)/);
        }
      });
    });
  }
});
