import fs from "node:fs";
import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Writes through the record API (docs/decisions/0015): the official `pocketbase` SDK, unchanged,
// against the real production server over HTTP, as a guest, customer A, customer B and staff.
// Create, update and delete on every collection (the authorization matrix for writes), PocketBase's
// bodies for refusals and validation failures, the domain's state tables refusing moves, files
// through FormData, and `pb.createBatch()` all or nothing. The database gets, before the server
// starts, what the features' own functions make: staff, A and B, two requests from A, a quote
// sent to A, a draft for A, a quote sent to B, and an order A placed through the cart.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-writes-sdk"));

import { createProduct } from "~/features/catalogue/product-commands.server";
import { createSolicitud } from "~/features/solicitudes/create.server";
import { quoteRequestSchema } from "~/features/solicitudes/forms";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { png, productValues } from "../../../tests/support/catalogue-fixtures";
import { anOrder } from "../../../tests/support/orders-fixtures";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { validQuoteFields } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { matrixClients, sdkFailure } from "../../../tests/support/sdk-client";

const PASSWORD = "Fresadora-CNC-42";
const STAFF = { name: "Personal Escrituras", email: `personal-esc-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const A = { name: "Renata Salas", email: `renata-esc-${process.pid}@ejemplo.mx`, id: "" };
const B = { name: "Mauricio Leal", email: `mauricio-esc-${process.pid}@ejemplo.mx`, id: "" };
const ONLY_SUPERUSERS = { status: 403, message: "Only superusers can perform this action.", data: {} };
const NOT_ALLOWED = { status: 403, message: "The authorized record is not allowed to perform this action.", data: {} };
const NOT_FOUND = { status: 404, message: "The requested resource wasn't found.", data: {} };

const seed = {
  solicitudA: "",
  solicitudQuote: "",
  sentA: "",
  draftA: "",
  quoteB: "",
  orderA: "",
  product: "",
};

let server: TestServer | undefined;
const pb = {} as Record<"guest" | "a" | "b" | "staff", PocketBase>;
type Who = keyof typeof pb;

async function aSolicitud(quantity: string, token: string): Promise<string> {
  const value = quoteRequestSchema().parse(validQuoteFields({ name: A.name, email: A.email, quantity, formToken: `${token}-${process.pid}` }));
  const created = await createSolicitud({ type: "cotizacion", value, files: [], token: value.formToken, ip: "127.0.0.1", userAgent: "vitest", userId: A.id });
  if (!created.ok) throw new Error("solicitud not created");
  return created.value.id;
}

async function prepare(): Promise<void> {
  await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
  A.id = (await registeredCustomer(A.name, A.email, PASSWORD)).id;
  B.id = (await registeredCustomer(B.name, B.email, PASSWORD)).id;
  seed.solicitudA = await aSolicitud("40", "esc-1");
  seed.solicitudQuote = await aSolicitud("75", "esc-2");
  seed.sentA = (await createTestQuote({ name: A.name, email: A.email, userId: A.id })).id;
  seed.draftA = (await createTestQuote({ name: A.name, email: A.email, userId: A.id }, { send: false })).id;
  seed.quoteB = (await createTestQuote({ name: B.name, email: B.email, userId: B.id })).id;
  const product = await createProduct(productValues({ name: "Buje de bronce SAE 660", sku: "FOR-BUJ-660", price: 10_000, stock: 50 }));
  if (!product.ok) throw new Error("product not created");
  seed.product = product.value.id;
  seed.orderA = (await anOrder(product.value.id, { userId: A.id, quantity: 2 })).orderId;
}

beforeAll(async () => {
  server = await startTestServer({ prepare });
  Object.assign(pb, await matrixClients(server.url, { a: A, b: B, customerPassword: PASSWORD, staff: STAFF }));
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const failure = sdkFailure;

/** The status a call answers: 200/204 when it worked, the error's otherwise. */
async function statusOf(promise: Promise<unknown>): Promise<number | { status: number; body: unknown }> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (!(error instanceof ClientResponseError)) throw error;
    return { status: error.status, body: error.response };
  }
}

let skuCounter = 0;
const newProduct = (overrides: Record<string, unknown> = {}) => ({
  nombre: "Cople hidráulico de 1/2 in",
  sku: `FOR-API-${process.pid}-${(skuCounter += 1)}`,
  categoria: "Hidráulica",
  resumen: "Cople de acero al carbón para manguera de alta presión.",
  precio: 116,
  existencia: 12,
  ...overrides,
});

describe("the authorization matrix for writes", { timeout: 120_000 }, () => {
  it("productos: only staff create, update and delete; everyone else gets PocketBase's 403", async () => {
    for (const who of ["guest", "a", "b"] as const) {
      expect(await statusOf(pb[who].collection("productos").create(newProduct())), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("productos").update(seed.product, { existencia: 1 })), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("productos").delete(seed.product)), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
    }
    const created = await pb.staff.collection("productos").create(newProduct());
    expect((await pb.staff.collection("productos").update(created.id, { existencia: 3 })).existencia).toBe(3);
    expect(await pb.staff.collection("productos").delete(created.id)).toBe(true);
    expect((await pb.staff.collection("productos").getOne(seed.product)).existencia).toBe(48);
  });

  it("solicitudes: staff update; nobody creates or deletes (staff get the other 403)", async () => {
    for (const who of ["guest", "a", "b"] as const) {
      expect(await statusOf(pb[who].collection("solicitudes").create({ nombre: "x" })), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("solicitudes").update(seed.solicitudA, { leida: true })), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("solicitudes").delete(seed.solicitudA)), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
    }
    expect(await statusOf(pb.staff.collection("solicitudes").create({ nombre: "x" }))).toEqual({ status: 403, body: NOT_ALLOWED });
    expect(await statusOf(pb.staff.collection("solicitudes").delete(seed.solicitudA))).toEqual({ status: 403, body: NOT_ALLOWED });
    expect((await pb.staff.collection("solicitudes").update(seed.solicitudA, { leida: true })).leida).toBe(true);
  });

  it("cotizaciones: staff create and update through the quote domain; nobody deletes", async () => {
    for (const who of ["guest", "a", "b"] as const) {
      expect(await statusOf(pb[who].collection("cotizaciones").create({})), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("cotizaciones").update(seed.sentA, {})), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("cotizaciones").delete(seed.sentA)), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
    }
    expect(await statusOf(pb.staff.collection("cotizaciones").delete(seed.sentA))).toEqual({ status: 403, body: NOT_ALLOWED });
    const blank = await pb.staff.collection("cotizaciones").create({});
    expect(blank).toMatchObject({ collectionName: "cotizaciones", estado: "borrador", solicitud: "", numero: expect.stringMatching(/^COT-\d{4}-\d{4}$/) });
    expect((await pb.staff.collection("cotizaciones").update(seed.sentA, {})).estado).toBe("enviada");
  });

  it("mensajes: staff and the quote's owner create; a guest or another customer gets PocketBase's failed create rule; nobody edits or deletes", async () => {
    const write = (who: Who, cotizacion: string) => statusOf(pb[who].collection("mensajes").create({ cotizacion, texto: `Mensaje de prueba de ${who}.` }));
    const ruleFailed = { status: 400, body: { status: 400, message: "Failed to create record.", data: {} } };
    expect(await write("guest", seed.sentA)).toEqual(ruleFailed);
    expect(await write("b", seed.sentA)).toEqual(ruleFailed);
    // A's own draft is not A's to see yet, so not A's to write on either.
    expect(await write("a", seed.draftA)).toEqual(ruleFailed);
    expect(await write("a", seed.sentA)).toBe(200);
    expect(await write("staff", seed.sentA)).toBe(200);
    expect(await write("b", seed.quoteB)).toBe(200);

    const message = await pb.staff.collection("mensajes").getFirstListItem(`cotizacion = "${seed.sentA}"`);
    for (const who of ["guest", "a", "b"] as const) {
      expect(await statusOf(pb[who].collection("mensajes").update(message.id, { texto: "cambio" })), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("mensajes").delete(message.id)), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
    }
    expect(await statusOf(pb.staff.collection("mensajes").update(message.id, { texto: "cambio" }))).toEqual({ status: 403, body: NOT_ALLOWED });
    expect(await statusOf(pb.staff.collection("mensajes").delete(message.id))).toEqual({ status: 403, body: NOT_ALLOWED });
  });

  it("pedidos: staff update; nobody creates or deletes", async () => {
    for (const who of ["guest", "a", "b"] as const) {
      expect(await statusOf(pb[who].collection("pedidos").create({})), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("pedidos").update(seed.orderA, { estado: "pagado" })), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
      expect(await statusOf(pb[who].collection("pedidos").delete(seed.orderA)), who).toEqual({ status: 403, body: ONLY_SUPERUSERS });
    }
    expect(await statusOf(pb.staff.collection("pedidos").create({}))).toEqual({ status: 403, body: NOT_ALLOWED });
    expect(await statusOf(pb.staff.collection("pedidos").delete(seed.orderA))).toEqual({ status: 403, body: NOT_ALLOWED });
    expect((await pb.staff.collection("pedidos").getOne(seed.orderA)).estado).toBe("pendiente_pago");
  });

  it("staff writing to a record that does not exist get PocketBase's 404", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const collection of ["productos", "solicitudes", "cotizaciones", "pedidos"]) {
      expect(await statusOf(pb.staff.collection(collection).update(unknown, {})), collection).toEqual({ status: 404, body: NOT_FOUND });
      expect(await statusOf(pb.staff.collection(collection).update("no-es-un-id", {})), collection).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect(await statusOf(pb.staff.collection("productos").delete(unknown))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await statusOf(pb.staff.collection("cosas").create({}))).toEqual({ status: 404, body: { status: 404, message: "Missing collection context.", data: {} } });
  });
});

describe("productos through the catalogue's commands", { timeout: 60_000 }, () => {
  it("creates a product from JSON and answers it as view does (fields respected; unknown fields ignored)", async () => {
    const body = newProduct({ precio: 1432.1, iva: 16, unidad: "juego", minimo: 2, activo: false, inventado: "se ignora" });
    const created = await pb.staff.collection("productos").create(body);
    expect(created).toMatchObject({ collectionName: "productos", nombre: body.nombre, sku: body.sku, precio: 1432.1, iva: 16, unidad: "juego", minimo: 2, activo: false, imagenes: [] });
    expect(created).not.toHaveProperty("inventado");
    expect(await pb.staff.collection("productos").getOne(created.id)).toEqual(created);
    // An inactive product is not the public's.
    expect((await failure(pb.guest.collection("productos").getOne(created.id))).status).toBe(404);
    const trimmed = await pb.staff.collection("productos").update(created.id, { activo: true }, { fields: "id,activo" });
    expect(trimmed).toEqual({ id: created.id, activo: true });
    expect((await pb.guest.collection("productos").getOne(created.id)).precio).toBe(1432.1);
  });

  it("refuses invalid values with PocketBase's 400 body and the field's code and message", async () => {
    const error = await failure(pb.staff.collection("productos").create({ sku: "con espacios", precio: -5, existencia: "muchos" }));
    expect(error.status).toBe(400);
    expect(error.response.message).toBe("Failed to create record.");
    expect(error.response.data).toMatchObject({
      nombre: { code: "validation_required", message: expect.any(String) },
      sku: { code: "validation_invalid_value", message: expect.stringContaining("Use letras") },
      precio: { code: "validation_invalid_value", message: expect.any(String) },
      existencia: { code: "validation_invalid_value", message: expect.any(String) },
    });
    const first = await pb.staff.collection("productos").create(newProduct());
    const clash = await failure(pb.staff.collection("productos").create(newProduct({ sku: first.sku })));
    expect(clash.response).toMatchObject({ status: 400, message: "Failed to create record.", data: { sku: { code: "validation_invalid_value" } } });
    const update = await failure(pb.staff.collection("productos").update(first.id, { nombre: "x" }));
    expect(update.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { nombre: { code: "validation_invalid_value" } } });
    // A body that is not JSON is PocketBase's "Failed to read the submitted data."
    const raw = await fetch(`${server!.url}/api/collections/productos/records`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: pb.staff.authStore.token },
      body: "{no es json",
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ status: 400, message: "Failed to read the submitted data.", data: {} });
  });

  it("takes images as files (FormData), adds with imagenes+, removes with imagenes-, and deletes the product", async () => {
    const photo = async (name: string) => new File([new Uint8Array(await png(400, 300))], name, { type: "image/png" });
    const form = new FormData();
    for (const [key, value] of Object.entries(newProduct())) form.append(key, String(value));
    form.append("imagenes", await photo("frente.png"));
    const created = await pb.staff.collection("productos").create(form);
    expect(created.imagenes).toHaveLength(1);
    expect(created.imagenes[0]).toMatch(/^[0-9a-f-]{36}\.webp$/);

    const added = await pb.staff.collection("productos").update(created.id, { "imagenes+": await photo("lado.png") });
    expect(added.imagenes).toHaveLength(2);
    expect(added.imagenes[0]).toBe(created.imagenes[0]);

    const removed = await pb.staff.collection("productos").update(created.id, { "imagenes-": [created.imagenes[0]] });
    expect(removed.imagenes).toEqual([added.imagenes[1]]);

    // A file that is not an image is the image pipeline's refusal, under the field.
    const bad = await failure(pb.staff.collection("productos").update(created.id, { "imagenes+": new File([new TextEncoder().encode("no soy imagen")], "x.png") }));
    expect(bad.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { imagenes: { code: "validation_invalid_file" } } });
    expect((await pb.staff.collection("productos").getOne(created.id)).imagenes).toEqual(removed.imagenes);

    expect(await pb.staff.collection("productos").delete(created.id)).toBe(true);
    expect((await failure(pb.staff.collection("productos").getOne(created.id))).status).toBe(404);
  });
});

describe("the domains' state tables", { timeout: 60_000 }, () => {
  it("solicitudes: moves as the table allows, refuses the rest under `estado`; notes are added", async () => {
    const moved = await pb.staff.collection("solicitudes").update(seed.solicitudA, { estado: "en_revision", nota: "Llamar al cliente el lunes." });
    expect(moved.estado).toBe("en_revision");
    const back = await failure(pb.staff.collection("solicitudes").update(seed.solicitudA, { estado: "nuevo" }));
    expect(back.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { estado: { code: "validation_invalid_state", message: expect.stringContaining("No se puede pasar") } } });
    const unknown = await failure(pb.staff.collection("solicitudes").update(seed.solicitudA, { estado: "inventado" }));
    expect(unknown.response.data.estado.code).toBe("validation_invalid_value");
    // Nothing of a refused update stays: the note of the same request is undone with it.
    const refused = await failure(pb.staff.collection("solicitudes").update(seed.solicitudA, { leida: false, estado: "nuevo" }));
    expect(refused.status).toBe(400);
    expect((await pb.staff.collection("solicitudes").getOne(seed.solicitudA)).leida).toBe(true);
    // The same status again is no move: the record is answered unchanged.
    expect((await pb.staff.collection("solicitudes").update(seed.solicitudA, { estado: "en_revision" })).estado).toBe("en_revision");
  });

  it("cotizaciones: created from a request (which becomes cotizado), sent, revised, cancelled; other moves refused", async () => {
    const quote = await pb.staff.collection("cotizaciones").create({ solicitud: seed.solicitudQuote });
    expect(quote).toMatchObject({ estado: "borrador", solicitud: seed.solicitudQuote, cliente: A.id });
    expect((await pb.staff.collection("solicitudes").getOne(seed.solicitudQuote)).estado).toBe("cotizado");
    // As the panel's button: a request with a live quote answers that quote.
    expect((await pb.staff.collection("cotizaciones").create({ solicitud: seed.solicitudQuote })).id).toBe(quote.id);
    const missing = await failure(pb.staff.collection("cotizaciones").create({ solicitud: "00000000-0000-4000-8000-000000000000" }));
    expect(missing.response).toMatchObject({ status: 400, message: "Failed to create record.", data: { solicitud: { code: "validation_missing_rel_records" } } });

    // The customer sees the draft only once it is sent.
    expect((await failure(pb.a.collection("cotizaciones").getOne(seed.draftA))).status).toBe(404);
    const sent = await pb.staff.collection("cotizaciones").update(seed.draftA, { estado: "enviada" });
    expect(sent.estado).toBe("enviada");
    expect((await pb.a.collection("cotizaciones").getOne(seed.draftA)).estado).toBe("enviada");

    const accept = await failure(pb.staff.collection("cotizaciones").update(seed.draftA, { estado: "aceptada" }));
    expect(accept.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { estado: { code: "validation_invalid_state" } } });
    expect((await pb.staff.collection("cotizaciones").update(seed.draftA, { nuevaRevision: true })).estado).toBe("enviada");
    const twice = await failure(pb.staff.collection("cotizaciones").update(seed.draftA, { nuevaRevision: true }));
    expect(twice.response).toMatchObject({ status: 400, data: { nuevaRevision: { code: "validation_invalid_state" } } });
    // "enviada" again sends the revision prepared since.
    expect((await pb.staff.collection("cotizaciones").update(seed.draftA, { estado: "enviada" })).estado).toBe("enviada");
    expect((await pb.staff.collection("cotizaciones").update(seed.draftA, { estado: "cancelada" })).estado).toBe("cancelada");
    const reopen = await failure(pb.staff.collection("cotizaciones").update(seed.draftA, { estado: "enviada" }));
    expect(reopen.response.data.estado.code).toBe("validation_invalid_state");
  });

  it("mensajes: the record names its author and side; an empty text is refused under `texto`", async () => {
    const mine = await pb.a.collection("mensajes").create({ cotizacion: seed.sentA, texto: "¿Pueden entregar en Querétaro?" });
    expect(mine).toMatchObject({ collectionName: "mensajes", cotizacion: seed.sentA, autor: A.name, personal: false, texto: "¿Pueden entregar en Querétaro?" });
    const staff = await pb.staff.collection("mensajes").create({ cotizacion: seed.sentA, texto: "Sí, sin costo adicional." });
    expect(staff).toMatchObject({ autor: STAFF.name, personal: true });
    expect((await pb.a.collection("mensajes").getOne(staff.id)).texto).toBe("Sí, sin costo adicional.");
    const empty = await failure(pb.a.collection("mensajes").create({ cotizacion: seed.sentA, texto: " " }));
    expect(empty.response).toMatchObject({ status: 400, message: "Failed to create record.", data: { texto: { code: "validation_invalid_value" } } });
    const none = await failure(pb.a.collection("mensajes").create({ cotizacion: seed.sentA }));
    expect(none.response.data.texto.code).toBe("validation_required");
  });

  it("refuses text with a NUL character with PocketBase's 400 under the field, never a 500", async () => {
    const message = await failure(pb.a.collection("mensajes").create({ cotizacion: seed.sentA, texto: "hola\u0000mundo" }));
    expect(message.response).toMatchObject({ status: 400, message: "Failed to create record.", data: { texto: { code: "validation_invalid_value" } } });
    const note = await failure(pb.staff.collection("pedidos").update(seed.orderA, { nota: "pagado\u0000" }));
    expect(note.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { nota: { code: "validation_invalid_value" } } });
    const batch = pb.staff.createBatch();
    batch.collection("mensajes").create({ cotizacion: seed.sentA, texto: "bien" });
    batch.collection("mensajes").create({ cotizacion: seed.sentA, texto: "mal\u0000" });
    const refused = await failure(batch.send());
    expect(refused.status).toBe(400);
    expect(refused.response.data.requests[1]).toMatchObject({ code: "batch_request_failed" });
  });

  it("pedidos: staff move the order as the workflow allows; the rest is refused under `estado`", async () => {
    // Paid by SPEI, collected at the plant: it cannot skip to "en preparación" before payment.
    const skip = await failure(pb.staff.collection("pedidos").update(seed.orderA, { estado: "en_preparacion" }));
    expect(skip.response).toMatchObject({ status: 400, message: "Failed to update record.", data: { estado: { code: "validation_invalid_state" } } });
    expect((await pb.staff.collection("pedidos").update(seed.orderA, { estado: "pagado", nota: "Transferencia recibida." })).estado).toBe("pagado");
    expect((await pb.a.collection("pedidos").getOne(seed.orderA)).estado).toBe("pagado");
    const shipped = await failure(pb.staff.collection("pedidos").update(seed.orderA, { estado: "enviado" }));
    expect(shipped.response.data.estado.code).toBe("validation_invalid_state");
  });
});

describe("POST /api/batch", { timeout: 60_000 }, () => {
  it("runs creates, updates and deletes in one transaction and answers each as the single call would", async () => {
    const doomed = await pb.staff.collection("productos").create(newProduct());
    const batch = pb.staff.createBatch();
    const first = newProduct();
    batch.collection("productos").create(first);
    batch.collection("productos").update(seed.product, { existencia: 40 }, { fields: "id,existencia" });
    batch.collection("productos").delete(doomed.id);
    batch.collection("solicitudes").update(seed.solicitudA, { nota: "Revisado en lote." });
    const results = await batch.send();
    expect(results.map((result) => result.status)).toEqual([200, 200, 204, 200]);
    expect(results[0]!.body).toMatchObject({ collectionName: "productos", sku: first.sku });
    expect(results[1]!.body).toEqual({ id: seed.product, existencia: 40 });
    expect(results[2]!.body).toBeNull();
    expect((await pb.staff.collection("productos").getOne(results[0]!.body.id)).sku).toBe(first.sku);
    expect((await failure(pb.staff.collection("productos").getOne(doomed.id))).status).toBe(404);
  });

  it("is all or nothing: a failing third request leaves the first two undone, and names its index", async () => {
    const before = (await pb.staff.collection("pedidos").getOne(seed.orderA)).estado;
    const sku = newProduct().sku;
    const batch = pb.staff.createBatch();
    batch.collection("productos").create(newProduct({ sku }));
    batch.collection("pedidos").update(seed.orderA, { estado: "cancelado" });
    batch.collection("solicitudes").update(seed.solicitudA, { estado: "nuevo" });
    const error = await failure(batch.send());
    expect(error.status).toBe(400);
    expect(error.response).toEqual({
      status: 400,
      message: "Batch transaction failed.",
      data: {
        requests: {
          "2": {
            code: "batch_request_failed",
            message: "Batch request failed.",
            response: { status: 400, message: "Failed to update record.", data: { estado: { code: "validation_invalid_state", message: expect.any(String) } } },
          },
        },
      },
    });
    expect(await pb.staff.collection("productos").getFullList({ filter: `sku = "${sku}"` })).toEqual([]);
    expect((await pb.staff.collection("pedidos").getOne(seed.orderA)).estado).toBe(before);
    // The cancellation would have returned the stock: it did not.
    expect((await pb.staff.collection("productos").getOne(seed.product)).existencia).toBe(40);
  });

  it("carries files (multipart, requests.N.field) and refuses as the caller: a customer's product create fails with 403 inside", async () => {
    const batch = pb.staff.createBatch();
    batch.collection("productos").create({ ...newProduct(), imagenes: [new File([new Uint8Array(await png(320, 240))], "vista.png", { type: "image/png" })] });
    const [created] = await batch.send();
    expect(created!.body.imagenes).toHaveLength(1);

    const customer = pb.a.createBatch();
    customer.collection("mensajes").create({ cotizacion: seed.sentA, texto: "Esto no debe quedar." });
    customer.collection("productos").create(newProduct());
    const refused = await failure(customer.send());
    expect(refused.response.data.requests["1"]).toEqual({ code: "batch_request_failed", message: "Batch request failed.", response: ONLY_SUPERUSERS });
    const texts = (await pb.a.collection("mensajes").getFullList({ filter: `cotizacion = "${seed.sentA}"` })).map((message) => message.texto);
    expect(texts).not.toContain("Esto no debe quedar.");
  });

  it("validates the batch as PocketBase does: none, too many, a bad method, an action that is not a write", async () => {
    const post = (body: unknown) =>
      fetch(`${server!.url}/api/batch`, { method: "POST", headers: { "content-type": "application/json", authorization: pb.staff.authStore.token }, body: JSON.stringify(body) });
    const none = await post({ requests: [] });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ status: 400, message: "Invalid batch request data.", data: { requests: { code: "validation_required", message: "Cannot be blank." } } });
    const many = await post({ requests: Array.from({ length: 51 }, () => ({ method: "DELETE", url: "/api/collections/productos/records/x" })) });
    expect((await many.json()).data.requests.code).toBe("validation_length_too_long");
    const method = await post({ requests: [{ method: "TRACE", url: "/api/collections/productos/records" }] });
    expect((await method.json()).data).toEqual({ requests: { "0": { method: { code: "validation_in_invalid", message: "Must be a valid value." } } } });
    const read = await post({ requests: [{ method: "GET", url: "/api/collections/productos/records" }] });
    expect(await read.json()).toMatchObject({ status: 400, message: "Batch transaction failed.", data: { requests: { "0": { code: "batch_request_failed" } } } });
    const garbage = await fetch(`${server!.url}/api/batch`, { method: "POST", headers: { "content-type": "application/json" }, body: "[" });
    expect(await garbage.json()).toEqual({ status: 400, message: "Failed to read the submitted batch data.", data: {} });
  });
});
