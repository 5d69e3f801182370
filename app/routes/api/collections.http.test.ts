import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// PocketBase's collections API, read-only (issue 17 §3, docs/decisions/0056), with the official
// `pocketbase` SDK against the real production server: an admin reads every collection's schema in
// PocketBase's model and the scaffolds; changing, importing or truncating is refused with 403;
// anyone else gets PocketBase's 401 or 403.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("collections-api"));

import { getAuthSecret } from "~/services/security/secret.server";
import { sdkFailure } from "../../../tests/support/sdk-client";
import { expectSuperusersOnly, prepareSuperuserCallers, superuserCallers, type CallerName } from "../../../tests/support/superuser-clients";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

let server: TestServer | undefined;
let clients: Record<CallerName, PocketBase>;

beforeAll(async () => {
  server = await startTestServer({ dataDir, env: { AUTH_SECRET: getAuthSecret() }, prepare: () => prepareSuperuserCallers("colecciones") });
  clients = await superuserCallers(server.url, "colecciones");
}, 360_000);

afterAll(async () => {
  await server?.stop();
});

describe("/api/collections", () => {
  it("lists every collection of the record API in PocketBase's model", async () => {
    const all = await clients.admin.collections.getFullList();
    const names = all.map((collection) => collection.name);
    for (const name of ["productos", "solicitudes", "cotizaciones", "mensajes", "pedidos", "users", "_superusers", "ajustes", "servicios", "industrias", "preguntas", "paginas", "inicio", "redirecciones", "medios"]) {
      expect(names, name).toContain(name);
    }
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const page = await clients.admin.collections.getList(1, 3);
    expect(page).toMatchObject({ page: 1, perPage: 3, totalItems: all.length, totalPages: Math.ceil(all.length / 3) });
    expect(page.items.map((collection) => collection.name)).toEqual(names.slice(0, 3));

    const users = all.find((collection) => collection.name === "users")!;
    expect(users).toMatchObject({ type: "auth", system: false, indexes: [] });
    const products = await clients.admin.collections.getOne("productos");
    expect(products).toMatchObject({ id: "pbc_productos", name: "productos", type: "base" });
    expect(products.fields.find((field: { name: string }) => field.name === "id")).toMatchObject({ type: "text", primaryKey: true, system: true });
    expect(products.fields.find((field: { name: string }) => field.name === "created")).toMatchObject({ type: "autodate", onCreate: true, onUpdate: false });
    expect(products.fields.find((field: { name: string }) => field.name === "updated")).toMatchObject({ type: "autodate", onUpdate: true });
    // Rules are descriptions (Forja's rules are code); null is PocketBase's "superusers only".
    expect(typeof products.listRule).toBe("string");
    expect(await clients.admin.collections.getOne("_superusers")).toMatchObject({ listRule: null, viewRule: null, createRule: null });
    // By id as well as by name.
    expect((await clients.admin.collections.getOne("pbc_productos")).name).toBe("productos");
    // A relation names the collection it points to.
    const quotes = await clients.admin.collections.getOne("cotizaciones");
    const relation = quotes.fields.find((field: { type: string }) => field.type === "relation");
    if (relation) expect(all.map((collection) => collection.id)).toContain(relation.collectionId);

    expect((await sdkFailure(clients.admin.collections.getOne("no-existe"))).response).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
    const filtered = await sdkFailure(clients.admin.collections.getList(1, 30, { filter: "name = 'users'" }));
    expect(filtered.status).toBe(400);
    expect(filtered.response.message).toMatch(/no filtra/);
  });

  it("answers the scaffolds of a new collection", async () => {
    const scaffolds = await clients.admin.collections.getScaffolds();
    expect(Object.keys(scaffolds).sort()).toEqual(["auth", "base", "view"]);
    expect(scaffolds.base!.fields.map((field) => field.name)).toEqual(["id", "created", "updated"]);
    expect(scaffolds.auth!.fields.map((field) => field.name)).toEqual(expect.arrayContaining(["id", "email", "password", "tokenKey", "verified", "emailVisibility"]));
    expect(scaffolds.view).toMatchObject({ type: "view", fields: [] });
  });

  it("refuses to create, change, delete, import or truncate a collection, with a Spanish reason", async () => {
    const refusals = [
      () => clients.admin.collections.create({ name: "nueva", type: "base" }),
      () => clients.admin.collections.update("productos", { listRule: "" }),
      () => clients.admin.collections.delete("productos"),
      () => clients.admin.collections.import([{ id: "pbc_productos", name: "productos", type: "base", system: false, indexes: [], fields: [] }] as never),
      () => clients.admin.collections.truncate("productos"),
    ];
    for (const refuse of refusals) {
      const failure = await sdkFailure(refuse());
      expect(failure.status).toBe(403);
      expect(failure.response.message).toMatch(/^Las colecciones de Forja son parte de la aplicación/);
    }
    // Nothing changed: the products are all still there.
    expect((await clients.admin.collection("productos").getList(1, 1)).totalItems).toBeGreaterThan(0);
  });

  it("is for superusers only: a guest gets 401, staff of other roles and customers 403", async () => {
    await expectSuperusersOnly(clients, (client) => client.collections.getFullList());
    await expectSuperusersOnly(clients, (client) => client.collections.getOne("productos"));
    await expectSuperusersOnly(clients, (client) => client.collections.getScaffolds());
    await expectSuperusersOnly(clients, (client) => client.collections.truncate("productos"));
  });
});
