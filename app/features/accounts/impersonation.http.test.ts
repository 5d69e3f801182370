import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Impersonation for support (issue 17 §5, docs/decisions/0063), with the official `pocketbase` SDK
// against the real production server: a superuser gets a customer's non-refreshable token; anyone
// else is refused as PocketBase refuses a non-superuser; the token reads the customer's records,
// its writes are refused unless the admin asked for a writable one; it expires; every start is in
// /api/logs with the admin's name.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("impersonate-api"));

import { desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import { signRecordToken } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";
import { CALLER_PASSWORD, expectSuperusersOnly, prepareSuperuserCallers, type CallerName } from "../../../tests/support/superuser-clients";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const LABEL = "suplantar";
const READ_ONLY = { status: 403, message: "Este token de soporte es de solo lectura: pida uno con «writable: true» para hacer cambios.", data: {} };

let server: TestServer | undefined;
let clients: Record<CallerName, PocketBase>;
const seed = { customerId: "", quoteId: "", staffId: "", adminToken: "" };

const emailOf = (role: Exclude<CallerName, "guest">) => (role === "customer" ? `cliente-${LABEL}-${process.pid}@ejemplo.mx` : `${role}-${LABEL}-${process.pid}@forja.mx`);

beforeAll(async () => {
  server = await startTestServer({
    dataDir,
    env: { AUTH_SECRET: getAuthSecret() },
    prepare: async () => {
      await prepareSuperuserCallers(LABEL);
      const [customer] = await getDb().select().from(user).where(eq(user.email, emailOf("customer")));
      const [staff] = await getDb().select().from(user).where(eq(user.email, emailOf("editor")));
      const [admin] = await getDb().select().from(user).where(eq(user.email, emailOf("admin")));
      seed.customerId = customer!.id;
      seed.staffId = staff!.id;
      seed.quoteId = (await createTestQuote({ name: customer!.name, email: customer!.email, userId: customer!.id })).id;
      // The admin's `_superusers` token from its panel session (its password sign-in asks for a second step).
      const [adminSession] = await getDb().select().from(session).where(eq(session.userId, admin!.id)).orderBy(desc(session.createdAt)).limit(1);
      seed.adminToken = signRecordToken({ id: admin!.id, collection: "_superusers", sessionId: adminSession!.id, sessionExpiresAt: adminSession!.expiresAt }, { secret: getAuthSecret() });
    },
  });
  const url = server.url;
  clients = { admin: sdkClient(url), editor: sdkClient(url), ventas: sdkClient(url), customer: sdkClient(url), guest: sdkClient(url) };
  clients.admin.authStore.save(seed.adminToken, { id: "admin", collectionId: "pbc_3142635823", collectionName: "_superusers" });
  for (const role of ["editor", "ventas"] as const) await clients[role].collection("_superusers").authWithPassword(emailOf(role), CALLER_PASSWORD);
  await clients.customer.collection("users").authWithPassword(emailOf("customer"), CALLER_PASSWORD);
}, 360_000);

afterAll(async () => {
  await server?.stop();
});

describe("POST /api/collections/users/impersonate/{id}", () => {
  it("is for superusers only", async () => {
    await expectSuperusersOnly(clients, (client) => client.collection("users").impersonate(seed.customerId, 60));
  });

  it("answers a non-refreshable, read-only token of the customer that reads the customer's records", async () => {
    const customer = await clients.admin.collection("users").impersonate(seed.customerId, 600);
    expect(customer.authStore.record).toMatchObject({ id: seed.customerId, collectionName: "users" });
    const claims = JSON.parse(Buffer.from(customer.authStore.token.split(".")[1]!, "base64url").toString()) as { exp: number; iat: number; refreshable: boolean };
    expect(claims.refreshable).toBe(false);
    expect(claims.exp - claims.iat).toBe(600);

    const quotes = await customer.collection("cotizaciones").getFullList();
    expect(quotes.map((quote) => quote.id)).toContain(seed.quoteId);
    expect((await customer.collection("users").getOne(seed.customerId)).id).toBe(seed.customerId);

    // auth-refresh keeps it as it is (PocketBase's static token).
    const token = customer.authStore.token;
    await customer.collection("users").authRefresh();
    expect(customer.authStore.token).toBe(token);

    // Writes are refused, whatever the route.
    const message = sdkFailure(customer.collection("mensajes").create({ cotizacion: seed.quoteId, texto: "Escrito desde soporte." }));
    expect((await message).response).toEqual(READ_ONLY);
    expect((await sdkFailure(customer.collection("users").update(seed.customerId, { name: "Otro nombre" }))).response).toEqual(READ_ONLY);
    const batch = customer.createBatch();
    batch.collection("mensajes").create({ cotizacion: seed.quoteId, texto: "En lote." });
    expect((await sdkFailure(batch.send())).response).toEqual(READ_ONLY);
    // The customer's own token still writes.
    expect((await clients.customer.collection("mensajes").create({ cotizacion: seed.quoteId, texto: "Escrito por el cliente." })).texto).toBe("Escrito por el cliente.");
  });

  it("writes with a writable token (a Forja extension: writable: true)", async () => {
    const customer = await clients.admin.collection("users").impersonate(seed.customerId, 0, { body: { duration: 0, writable: true } });
    const claims = JSON.parse(Buffer.from(customer.authStore.token.split(".")[1]!, "base64url").toString()) as { exp: number; iat: number };
    // 0 is the default: one hour.
    expect(claims.exp - claims.iat).toBe(3600);
    const created = await customer.collection("mensajes").create({ cotizacion: seed.quoteId, texto: "Escrito desde soporte, con permiso." });
    expect(created.texto).toBe("Escrito desde soporte, con permiso.");
  });

  it("expires after its duration", async () => {
    const customer = await clients.admin.collection("users").impersonate(seed.customerId, 2);
    expect((await customer.collection("users").getOne(seed.customerId)).id).toBe(seed.customerId);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await sdkFailure(customer.collection("users").authRefresh())).status).toBe(401);
    expect(await customer.collection("cotizaciones").getFullList()).toEqual([]);
  });

  it("refuses a bad duration, an unknown record and a staff account", async () => {
    const tooLong = await sdkFailure(clients.admin.collection("users").impersonate(seed.customerId, 8 * 3600 + 1));
    expect(tooLong.response).toEqual({ status: 400, message: "An error occurred while validating the submitted data.", data: { duration: { code: "validation_max_less_equal_than_required", message: "Must be no greater than 28800." } } });
    const negative = await sdkFailure(clients.admin.collection("users").impersonate(seed.customerId, -1));
    expect(negative.response.data).toEqual({ duration: { code: "validation_min_greater_equal_than_required", message: "Must be no less than 0." } });
    const notFound = { status: 404, message: "The requested resource wasn't found.", data: {} };
    expect((await sdkFailure(clients.admin.collection("users").impersonate("no-existe", 60))).response).toEqual(notFound);
    expect((await sdkFailure(clients.admin.collection("users").impersonate(seed.staffId, 60))).response).toEqual(notFound);
    expect((await sdkFailure(clients.admin.collection("_superusers").impersonate(seed.staffId, 60))).response).toEqual(notFound);
  });

  it("logs every start with the admin's name", async () => {
    const before = await clients.admin.logs.getList(1, 1, { filter: "message = 'impersonation started'" });
    await clients.admin.collection("users").impersonate(seed.customerId, 60, { body: { duration: 60, writable: true } });
    const after = await clients.admin.logs.getList(1, 5, { filter: "message = 'impersonation started'", sort: "-created" });
    expect(after.totalItems).toBe(before.totalItems + 1);
    expect(after.items[0]!.data).toMatchObject({ type: "audit", via: "api", admin: { name: "Administración Sistema" }, customer: { id: seed.customerId, name: "Cliente Sistema" }, writable: true });
  });
});
