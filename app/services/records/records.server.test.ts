import { describe, expect, it, vi } from "vitest";

// The record API's engine on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) holding
// the demo catalogue, through the real `productos` collection: PocketBase's list shape, paging and
// perPage rules, skipTotal, sort and filter over the allow-list, `fields`, dates, and error bodies.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-engine"));

import { productosCollection } from "~/features/catalogue/index.server";
import { DEMO_PRODUCTS } from "~/features/catalogue/demo-products.server";
import { failureStatus, type Result } from "~/lib/result";
import { seedDemoCatalogue } from "../../../tests/support/catalogue-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import type { RecordCollection } from "./collection.server";
import { findRecordCollection, listRecords, parseFieldsParam, RECORD_API_MESSAGES, recordErrorBody, viewRecord, type RecordPage } from "./records.server";

useTestFileDatabase(dataDir, seedDemoCatalogue);

const COLLECTIONS: readonly RecordCollection[] = [productosCollection];
const TOTAL = DEMO_PRODUCTS.length;

const list = (query: Record<string, string> = {}, collections = COLLECTIONS) => listRecords(collections, "productos", new URLSearchParams(query), null);

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.value;
}

/** The status and body the route would send for a failure. */
function errorOf(result: Result<unknown>) {
  if (result.ok) throw new Error("expected a failure");
  const status = failureStatus(result);
  return recordErrorBody(result, status);
}

describe("list", () => {
  it("answers PocketBase's shape with 30 per page by default", async () => {
    const page = value(await list());
    expect(Object.keys(page)).toEqual(["page", "perPage", "totalItems", "totalPages", "items"]);
    expect(page).toMatchObject({ page: 1, perPage: 30, totalItems: TOTAL, totalPages: 1 });
    expect(page.items).toHaveLength(TOTAL);
    const [first] = page.items;
    expect(first).toMatchObject({ collectionId: "pbc_productos", collectionName: "productos" });
    expect(first!.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(first!.updated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("pages without overlap or gaps, and counts pages as PocketBase (0 for nothing)", async () => {
    const pages: RecordPage[] = [];
    for (let page = 1; page <= 3; page++) pages.push(value(await list({ page: String(page), perPage: "5", sort: "nombre" })));
    expect(pages.map((page) => page.items.length)).toEqual([5, 5, TOTAL - 10]);
    expect(pages.every((page) => page.totalPages === Math.ceil(TOTAL / 5))).toBe(true);
    const ids = pages.flatMap((page) => page.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(TOTAL);
    const past = value(await list({ page: "99", perPage: "5" }));
    expect(past).toMatchObject({ page: 99, items: [], totalItems: TOTAL });
    expect(value(await list({ filter: "nombre = 'no existe'" }))).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
  });

  it("clamps perPage to 500 and falls back to 30 (and page to 1) for bad values", async () => {
    expect(value(await list({ perPage: "1000" })).perPage).toBe(500);
    expect(value(await list({ perPage: "0" })).perPage).toBe(30);
    expect(value(await list({ perPage: "-3" })).perPage).toBe(30);
    expect(value(await list({ page: "0", perPage: "abc" }))).toMatchObject({ page: 1, perPage: 30 });
  });

  it("skips the count with skipTotal (Go's boolean words) and refuses other words", async () => {
    const counting: RecordCollection = { ...productosCollection, count: () => Promise.reject(new Error("the count ran")) };
    for (const word of ["1", "true", "t", "TRUE"]) {
      expect(value(await list({ skipTotal: word, perPage: "2" }, [counting]))).toMatchObject({ totalItems: -1, totalPages: -1, items: [{}, {}] });
    }
    expect(value(await list({ skipTotal: "0" })).totalItems).toBe(TOTAL);
    expect(errorOf(await list({ skipTotal: "yes" }))).toEqual({ status: 400, message: RECORD_API_MESSAGES.badRequest, data: {} });
  });

  it("sorts by allow-listed fields, several at once, ties broken by id", async () => {
    const byPrice = value(await list({ sort: "-precio,nombre" })).items.map((item) => item.precio as number);
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    // Each category in one run (whatever the database's collation), stock descending inside it.
    const byCategory = value(await list({ sort: "categoria,-existencia" })).items;
    const runs = byCategory.map((item) => item.categoria).filter((category, index, all) => index === 0 || category !== all[index - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    for (let index = 1; index < byCategory.length; index++) {
      const [before, after] = [byCategory[index - 1]!, byCategory[index]!];
      if (before.categoria === after.categoria) expect(before.existencia as number).toBeGreaterThanOrEqual(after.existencia as number);
    }
  });

  it("filters through the parser and compiler", async () => {
    const cheap = value(await list({ filter: "precio < 100 && existencia > 0" })).items;
    expect(cheap.length).toBeGreaterThan(0);
    expect(cheap.every((item) => (item.precio as number) < 100 && (item.existencia as number) > 0)).toBe(true);
    const one = DEMO_PRODUCTS[0]!;
    expect(value(await list({ filter: `sku = "${one.sku}" || slug = 'nada'` })).items.map((item) => item.nombre)).toEqual([one.name]);
    expect(value(await list({ filter: "nombre ~ 'ESCUADRA'" })).items.map((item) => item.sku)).toContain("FOR-ESC-100");
    expect(value(await list({ filter: "created <= @now" })).totalItems).toBe(TOTAL);
    expect(value(await list({ filter: "id = 'nope'" })).totalItems).toBe(0);
  });

  it("answers PocketBase's 400 body for a malformed filter, an unknown field or a bad sort", async () => {
    const queries: Record<string, string>[] = [
      { filter: "nombre = " },
      { filter: "(nombre = 'a'" },
      { filter: "active = true" },
      { filter: "priceCentavos > 1" },
      { filter: "precio > 'mucho'" },
      { filter: "constructor = 1" },
      { filter: "   " },
      { sort: "price" },
      { sort: "-" },
      { sort: "nombre;drop table products" },
    ];
    for (const query of queries) {
      expect(errorOf(await list(query)), JSON.stringify(query)).toEqual({ status: 400, message: "Something went wrong while processing your request.", data: {} });
    }
  });

  it("trims records to `fields` (top-level names, a nested name keeps its top level; * for all)", async () => {
    const page = value(await list({ fields: "id,nombre", perPage: "2" }));
    expect(page.items.map((item) => Object.keys(item).sort())).toEqual([
      ["id", "nombre"],
      ["id", "nombre"],
    ]);
    expect(Object.keys(value(await list({ fields: "*", perPage: "1" })).items[0]!)).toContain("precio");
    expect(parseFieldsParam("id, nombre:excerpt(20),expand.x")).toEqual(new Set(["id", "nombre", "expand"]));
    expect(parseFieldsParam("")).toBeNull();
  });

  it("answers 404 with PocketBase's message for an unknown collection", async () => {
    expect(errorOf(await listRecords(COLLECTIONS, "cosas", new URLSearchParams(), null))).toEqual({ status: 404, message: "Missing collection context.", data: {} });
    expect(findRecordCollection(COLLECTIONS, "pbc_productos")).toBe(productosCollection);
  });
});

describe("view", () => {
  it("answers one record by id, by collection name or id, trimmed by fields", async () => {
    const [first] = value(await list({ perPage: "1" })).items;
    const id = String(first!.id);
    expect(value(await viewRecord(COLLECTIONS, "productos", id, new URLSearchParams(), null))).toEqual(first);
    expect(value(await viewRecord(COLLECTIONS, "pbc_productos", id, new URLSearchParams("fields=id,sku"), null))).toEqual({ id, sku: first!.sku });
  });

  it("answers PocketBase's 404 body for an unknown or malformed id and an unknown collection", async () => {
    const notFound = { status: 404, message: "The requested resource wasn't found.", data: {} };
    expect(errorOf(await viewRecord(COLLECTIONS, "productos", "nope", new URLSearchParams(), null))).toEqual(notFound);
    expect(errorOf(await viewRecord(COLLECTIONS, "productos", "00000000-0000-4000-8000-000000000000", new URLSearchParams(), null))).toEqual(notFound);
    expect(errorOf(await viewRecord(COLLECTIONS, "cosas", "nope", new URLSearchParams(), null))).toMatchObject({ status: 404, message: "Missing collection context." });
  });
});

describe("random filters and sorts", () => {
  // Words of the grammar, fields known and unknown, values of every kind, and stray characters.
  const FIELDS = ["id", "created", "updated", "slug", "nombre", "sku", "categoria", "precio", "existencia", "minimo", "imagenes", "imagenes:length", "imagenes:each", "nombre:lower", "active", "price_centavos", "@now", "@request.auth.id", "@collection.x"];
  const OPERATORS = ["=", "!=", ">", ">=", "<", "<=", "~", "!~", "?=", "?>", "?~", "==", "=>"];
  const VALUES = ["1", "-2.5", "0", "99999999999999999999999999", "''", "'x'", "'2026-01-02'", "'2026-02-31 10:00:00.000Z'", "'%'", "'\\'", "\"a'b\"", "true", "null", "@now", "@yesterday", "'\u0000'", "nombre", "precio", "strftime('%Y', created)"];
  const JOINS = [" && ", " || ", " ", "&", ""];

  let seed = 20_261_124;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

  function randomFilter(depth = 0): string {
    const parts: string[] = [];
    const count = 1 + Math.floor(random() * 3);
    for (let index = 0; index < count; index++) {
      if (index > 0) parts.push(pick(JOINS));
      const roll = random();
      if (roll < 0.15 && depth < 3) parts.push(`(${randomFilter(depth + 1)})`);
      else if (roll < 0.2) parts.push(pick(["(", ")", "", "// nota\n"]));
      else parts.push(`${pick([...FIELDS, ...VALUES])} ${pick(OPERATORS)} ${pick([...VALUES, ...FIELDS])}`);
    }
    return parts.join("");
  }

  it("answers 200 or 400 to 300 random filters and sorts, never a database error", { timeout: 60_000 }, async () => {
    const statuses = new Map<number, number>();
    for (let run = 0; run < 300; run++) {
      const query = { filter: randomFilter(), sort: Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${pick(["", "-", "+"])}${pick(FIELDS)}`).join(","), perPage: "5" };
      const result = await list(query).catch((error: unknown) => {
        throw new Error(`${JSON.stringify(query)} threw ${String(error)}`);
      });
      const status = result.ok ? 200 : failureStatus(result);
      expect([200, 400], JSON.stringify(query)).toContain(status);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // Both kinds of answer were exercised.
    expect(statuses.get(200)).toBeGreaterThan(10);
    expect(statuses.get(400)).toBeGreaterThan(10);
  });
});
