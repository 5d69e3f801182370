import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The authorization contract of the record API's `solicitudes`, `cotizaciones`, `mensajes` and
// `pedidos` collections (docs/decisions/0014): the official `pocketbase` SDK, unchanged, against the
// real production server over HTTP, as a guest, customer A, customer B and staff. Before the server
// starts, its database gets what the features' own functions make: a staff account (signed in once
// for its id), A and B (registered as /registro does), a solicitud A sent signed in (with a file),
// a quote sent to A with a message from staff, a draft for A (with a staff message A must not see
// either), a quote sent to B, and an order A placed through the cart and checkout.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-collections-sdk"));

import { createProduct } from "~/features/catalogue/product-commands.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { createSolicitud } from "~/features/solicitudes/create.server";
import { quoteRequestSchema } from "~/features/solicitudes/forms";
import { uploadsTmpDir } from "~/services/files/storage.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { productValues } from "../../../tests/support/catalogue-fixtures";
import { pdfFile, peek } from "../../../tests/support/minimal-files";
import { anOrder } from "../../../tests/support/orders-fixtures";
import { createTestQuote } from "../../../tests/support/quote-fixtures";
import { validQuoteFields } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { matrixClients, sdkFailure } from "../../../tests/support/sdk-client";

const PASSWORD = "Fresadora-CNC-42";
const STAFF = { name: "Personal Colecciones", email: `personal-col-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const A = { name: "Sofía Treviño", email: `sofia-col-${process.pid}@ejemplo.mx`, id: "" };
const B = { name: "Pablo Ibarra", email: `pablo-col-${process.pid}@ejemplo.mx`, id: "" };
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const COLLECTIONS = ["solicitudes", "cotizaciones", "mensajes", "pedidos"] as const;
type Collection = (typeof COLLECTIONS)[number];

/** What prepare made, by owner. */
const seed = {
  solicitudA: { id: "", number: "", fileId: "" },
  sentA: { id: "", number: "", totalCentavos: 0 },
  draftA: { id: "" },
  quoteB: { id: "" },
  messageA: { body: "Le enviamos la cotización; quedamos atentos." },
  orderA: { id: "", number: "" },
};

let server: TestServer | undefined;
const pb = {} as Record<"guest" | "a" | "b" | "staff", PocketBase>;

async function prepare(): Promise<void> {
  const staff = { id: (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)).user.id, name: STAFF.name };
  A.id = (await registeredCustomer(A.name, A.email, PASSWORD)).id;
  B.id = (await registeredCustomer(B.name, B.email, PASSWORD)).id;

  // A quote request sent signed in, with a drawing whose name needs sanitizing.
  const bytes = pdfFile();
  const tmpPath = path.join(uploadsTmpDir(), randomUUID());
  fs.mkdirSync(path.dirname(tmpPath), { recursive: true });
  fs.writeFileSync(tmpPath, bytes);
  const file = { field: "files", name: "plano soporte.pdf", tmpPath, crc32: zlib.crc32(bytes).toString(16).padStart(8, "0"), ...peek(bytes) };
  const value = quoteRequestSchema().parse(validQuoteFields({ name: A.name, email: A.email, quantity: "40", formToken: `col-${process.pid}` }));
  const solicitud = await createSolicitud({ type: "cotizacion", value, files: [file], token: value.formToken, ip: "127.0.0.1", userAgent: "vitest", userId: A.id });
  if (!solicitud.ok) throw new Error("solicitud not created");
  seed.solicitudA = { ...seed.solicitudA, id: solicitud.value.id, number: solicitud.value.number };

  seed.sentA = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
  seed.draftA = await createTestQuote({ name: A.name, email: A.email, userId: A.id }, { send: false });
  seed.quoteB = await createTestQuote({ name: B.name, email: B.email, userId: B.id });
  for (const [quoteId, body] of [
    [seed.sentA.id, seed.messageA.body],
    [seed.draftA.id, "Borrador: aún no la ve el cliente."],
  ]) {
    const sent = await addQuoteMessage(quoteId!, staff, { body: body!, fromStaff: true });
    if (!sent.ok) throw new Error("message not added");
  }

  const product = await createProduct(productValues({ price: 12_345, stock: 10 }));
  if (!product.ok) throw new Error("product not created");
  const order = await anOrder(product.value.id, { userId: A.id, quantity: 3 });
  seed.orderA = { id: order.orderId, number: order.number };
}

/** The SDK as a client written for PocketBase would use it, with every request bounded in time. */

beforeAll(async () => {
  server = await startTestServer({ prepare });
  Object.assign(pb, await matrixClients(server.url, { a: A, b: B, customerPassword: PASSWORD, staff: STAFF }));
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const failure = sdkFailure;

const ids = async (who: PocketBase, collection: Collection, filter?: string) => (await who.collection(collection).getFullList({ sort: "created,id", ...(filter ? { filter } : {}) })).map((item) => item.id);

describe("solicitudes, cotizaciones, mensajes and pedidos through the official SDK", { timeout: 60_000 }, () => {
  it("getFullList: a guest sees none; A only A's (never the draft); B only B's; staff all", async () => {
    const visible = (who: keyof typeof pb) => Promise.all(COLLECTIONS.map(async (collection) => [collection, (await ids(pb[who], collection)).sort()]));
    const matrix = Object.fromEntries(await Promise.all((["guest", "a", "b", "staff"] as const).map(async (who) => [who, Object.fromEntries(await visible(who))])));
    const messageIds = await ids(pb.staff, "mensajes");
    const messageA = (await pb.staff.collection("mensajes").getFirstListItem(`cotizacion = "${seed.sentA.id}"`)).id;
    expect(matrix).toEqual({
      guest: { solicitudes: [], cotizaciones: [], mensajes: [], pedidos: [] },
      a: { solicitudes: [seed.solicitudA.id], cotizaciones: [seed.sentA.id], mensajes: [messageA], pedidos: [seed.orderA.id] },
      b: { solicitudes: [], cotizaciones: [seed.quoteB.id], mensajes: [], pedidos: [] },
      staff: { solicitudes: [seed.solicitudA.id], cotizaciones: [seed.sentA.id, seed.draftA.id, seed.quoteB.id].sort(), mensajes: [...messageIds].sort(), pedidos: [seed.orderA.id] },
    });
    expect(messageIds).toHaveLength(2);
    // The counts PocketBase's list reports agree with what is listed.
    expect((await pb.a.collection("cotizaciones").getList(1, 10)).totalItems).toBe(1);
    expect((await pb.staff.collection("cotizaciones").getList(1, 10)).totalItems).toBe(3);
    expect((await pb.guest.collection("pedidos").getList(1, 10)).totalItems).toBe(0);
  });

  it("getOne of a record the caller may not see is a 404 (another's, A's own draft, anything for a guest)", async () => {
    const messageA = (await pb.staff.collection("mensajes").getFirstListItem(`cotizacion = "${seed.sentA.id}"`)).id;
    const ofA: [Collection, string][] = [
      ["solicitudes", seed.solicitudA.id],
      ["cotizaciones", seed.sentA.id],
      ["mensajes", messageA],
      ["pedidos", seed.orderA.id],
    ];
    for (const [collection, id] of ofA) {
      expect((await pb.a.collection(collection).getOne(id)).id).toBe(id);
      expect((await pb.staff.collection(collection).getOne(id)).id).toBe(id);
      for (const who of [pb.b, pb.guest]) {
        const error = await failure(who.collection(collection).getOne(id));
        expect(error.status, `${collection} ${id}`).toBe(404);
        expect(error.response).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
      }
    }
    expect((await failure(pb.a.collection("cotizaciones").getOne(seed.quoteB.id))).status).toBe(404);
    expect((await failure(pb.a.collection("cotizaciones").getOne(seed.draftA.id))).status).toBe(404);
    expect((await pb.staff.collection("cotizaciones").getOne(seed.draftA.id)).estado).toBe("borrador");
  });

  it("a filter cannot widen the rule: B asking for everything, or for A's records by id, gets none of A's", async () => {
    const messageA = (await pb.staff.collection("mensajes").getFirstListItem(`cotizacion = "${seed.sentA.id}"`)).id;
    expect(await ids(pb.b, "cotizaciones", "cliente != ''")).toEqual([seed.quoteB.id]);
    expect(await ids(pb.b, "cotizaciones", `cliente = '${A.id}' || id = '${seed.sentA.id}' || id = '${seed.draftA.id}'`)).toEqual([]);
    expect(await ids(pb.b, "pedidos", "cliente != '' || cliente = ''")).toEqual([]);
    expect(await ids(pb.b, "pedidos", `id = '${seed.orderA.id}'`)).toEqual([]);
    expect(await ids(pb.b, "solicitudes", "correo != '' || nombre != ''")).toEqual([]);
    expect(await ids(pb.b, "solicitudes", `id = '${seed.solicitudA.id}'`)).toEqual([]);
    expect(await ids(pb.b, "mensajes", "cotizacion != '' || personal = true")).toEqual([]);
    expect(await ids(pb.b, "mensajes", `id = '${messageA}'`)).toEqual([]);
    expect(await ids(pb.a, "cotizaciones", "estado = 'borrador'")).toEqual([]);
    expect(await ids(pb.a, "mensajes", `cotizacion = '${seed.draftA.id}'`)).toEqual([]);
    expect(await ids(pb.guest, "cotizaciones", "cliente != '' || cliente = ''")).toEqual([]);
  });

  it("a filter or sort on a field not listed is PocketBase's 400, for staff too", async () => {
    const body = { status: 400, message: "Something went wrong while processing your request.", data: {} };
    const refused: [Collection, Record<string, string>][] = [
      ["solicitudes", { filter: "ip != ''" }],
      ["solicitudes", { filter: "formToken != ''" }],
      ["cotizaciones", { filter: "customerEmail != ''" }],
      ["cotizaciones", { sort: "notes" }],
      ["mensajes", { filter: "authorId != ''" }],
      ["pedidos", { filter: "email != ''" }],
      ["pedidos", { filter: "user_id != ''" }],
    ];
    for (const [collection, options] of refused) {
      for (const who of [pb.staff, pb.b]) {
        const error = await failure(who.collection(collection).getList(1, 5, options));
        expect(error.status, `${collection} ${JSON.stringify(options)}`).toBe(400);
        expect(error.response).toEqual(body);
      }
    }
  });

  it("reads each collection's record with the documented fields and types (money in pesos with IVA)", async () => {
    const meta = (collection: Collection) => ({ collectionId: `pbc_${collection}`, collectionName: collection, created: expect.stringMatching(DATE), updated: expect.stringMatching(DATE) });
    const solicitud = await pb.a.collection("solicitudes").getOne(seed.solicitudA.id);
    expect(solicitud).toEqual({
      ...meta("solicitudes"),
      id: seed.solicitudA.id,
      numero: seed.solicitudA.number,
      tipo: "cotizacion",
      estado: "nuevo",
      nombre: A.name,
      correo: A.email,
      empresa: "Maquinados del Bajío",
      industria: "industrial",
      servicio: "ingenieria-cad",
      cantidad: 40,
      leida: false,
      archivos: [expect.stringMatching(/^[0-9a-f-]{36}_plano_soporte\.pdf$/)],
    });

    const quote = await pb.a.collection("cotizaciones").getOne(seed.sentA.id);
    expect(quote).toEqual({
      ...meta("cotizaciones"),
      id: seed.sentA.id,
      numero: seed.sentA.number,
      estado: "enviada",
      total: seed.sentA.totalCentavos / 100,
      vigencia: expect.stringMatching(DATE),
      cliente: A.id,
      solicitud: "",
      pdf: `${seed.sentA.number}.pdf`,
    });
    // SAMPLE_LINES: $12,500 + IVA 2,000, and 3 × $33.33 less 7.5 % = $92.49 + IVA 14.80.
    expect(quote.total).toBe(14_607.29);
    expect((await pb.staff.collection("cotizaciones").getOne(seed.draftA.id)).vigencia).toBe("");

    const [message] = await pb.a.collection("mensajes").getFullList();
    expect(message).toEqual({ ...meta("mensajes"), id: expect.any(String), cotizacion: seed.sentA.id, autor: STAFF.name, personal: true, texto: seed.messageA.body });
    expect(message!.updated).toBe(message!.created);

    const order = await pb.a.collection("pedidos").getOne(seed.orderA.id);
    // $123.45 net is shown as $143.20 with IVA, and 3 × $143.20 = $429.60 is what the customer pays.
    expect(order).toEqual({ ...meta("pedidos"), id: seed.orderA.id, numero: seed.orderA.number, estado: "pendiente_pago", total: 429.6, cliente: A.id });
  });
});

describe("expand through the official SDK", { timeout: 60_000 }, () => {
  it("puts the related records under `expand`, nested, as each caller may see them", async () => {
    const [message] = await pb.a.collection("mensajes").getFullList({ expand: "cotizacion.cliente" });
    const quote = message!.expand!.cotizacion as { id: string; numero: string; expand: { cliente: { id: string; email: string; collectionName: string } } };
    expect(quote).toMatchObject({ id: seed.sentA.id, numero: seed.sentA.number, collectionName: "cotizaciones" });
    expect(quote.expand.cliente).toMatchObject({ id: A.id, email: A.email, collectionName: "users" });

    const staffView = await pb.staff.collection("pedidos").getOne(seed.orderA.id, { expand: "cliente" });
    expect(staffView.expand?.cliente).toMatchObject({ id: A.id, email: A.email });
  });

  it("ignores a path that names no relation", async () => {
    const [quoteB] = await pb.b.collection("cotizaciones").getFullList({ expand: "cliente,numero,nada.cliente" });
    expect(Object.keys(quoteB!.expand ?? {})).toEqual(["cliente"]);
    expect(quoteB!.expand!.cliente).toMatchObject({ id: B.id });
  });

  it("keeps `expand` when `fields` names it, and drops it otherwise", async () => {
    const kept = await pb.a.collection("cotizaciones").getOne(seed.sentA.id, { expand: "cliente", fields: "id,expand.cliente.email" });
    expect(Object.keys(kept)).toEqual(["id", "expand"]);
    const dropped = await pb.a.collection("cotizaciones").getOne(seed.sentA.id, { expand: "cliente", fields: "id,numero" });
    expect(dropped).toEqual({ id: seed.sentA.id, numero: seed.sentA.number });
  });
});
