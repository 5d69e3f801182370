import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// Solicitudes as the record API's `solicitudes` collection, through the engine, on a real database:
// staff see every solicitud, a customer their own (sent signed in, or joined when they confirmed
// the email), a guest none; what the form stored about the connection never reaches a filter.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-records"));

import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { failureStatus, type Result } from "~/lib/result";
import type { RecordAuth } from "~/services/records/collection.server";
import { listRecords, viewRecord, type RecordJson } from "~/services/records/records.server";
import { TEST_STAFF } from "../../../tests/support/auth-requests";
import { insertSolicitudes, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";
import { linkSolicitudesToUser } from "./link.server";
import { solicitudesCollection } from "./record-collection.server";

useSolicitudTestDatabase(dataDir, { staff: true });

const COLLECTIONS = [solicitudesCollection];
const STAFF: RecordAuth = { collection: "_superusers", id: TEST_STAFF.id };
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const list = async (query: Record<string, string>, auth: RecordAuth) => {
  const result = await listRecords(COLLECTIONS, "solicitudes", new URLSearchParams(query), auth);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.value;
};
const numbers = async (query: Record<string, string>, auth: RecordAuth) => (await list({ sort: "numero", ...query }, auth)).items.map((item) => item.numero);
const view = (id: string, auth: RecordAuth): Promise<Result<RecordJson>> => viewRecord(COLLECTIONS, "solicitudes", id, new URLSearchParams(), auth);
const statusOf = (result: Result<unknown>) => (result.ok ? 200 : failureStatus(result));

async function aCustomer(name: string) {
  const id = `cliente-${randomUUID()}`;
  await getDb().insert(user).values({ id, name, email: `${id}@ejemplo.mx`, role: "customer", emailVerified: true });
  return { id, email: `${id}@ejemplo.mx`, auth: { collection: "users", id } as RecordAuth };
}

/** The owner's quote request with two files and a contact message; another customer's; an anonymous one. */
async function scene() {
  const owner = await aCustomer("Sofía Treviño");
  const other = await aCustomer("Pablo Ibarra");
  const [own, ownContact, others, anonymous] = await insertSolicitudes(
    {
      number: "SOL-2026-0101",
      userId: owner.id,
      name: "Sofía Treviño",
      email: owner.email,
      company: "Dispositivos Médicos del Centro",
      industry: "medica",
      service: "maquinado-cnc",
      quantity: 50,
      ip: "203.0.113.7",
      userAgent: "Firefox",
      fingerprint: "huella",
      readAt: new Date("2026-03-10T18:00:00Z"),
      createdAt: new Date("2026-03-10T17:00:00Z"),
    },
    { number: "SOL-2026-0102", type: "contacto", userId: owner.id, subject: "Visita", message: "¿Podemos visitar la planta?", createdAt: new Date("2026-03-11T17:00:00Z") },
    { number: "SOL-2026-0103", userId: other.id, quantity: 500, createdAt: new Date("2026-03-12T17:00:00Z") },
    { number: "SOL-2026-0104", email: "anonima@ejemplo.mx", createdAt: new Date("2026-03-13T17:00:00Z") },
  );
  const file = (name: string, at: string, solicitudId = own!.id) => ({ solicitudId, originalName: name, storagePath: `x/${randomUUID()}`, kind: "stl", mimeType: "model/stl", size: 1, sha256: "abc", createdAt: new Date(at) });
  const files = await getDb()
    .insert(solicitudFiles)
    .values([file("carcasa.stl", "2026-03-10T17:00:01Z"), file("tapa.stl", "2026-03-10T17:00:02Z"), file("plano final/../ñ.pdf", "2026-03-12T17:00:01Z", others!.id)])
    .returning();
  return { owner, other, own: own!, ownContact: ownContact!, others: others!, anonymous: anonymous!, files };
}

describe("solicitudes", () => {
  it("reads a solicitud as a record: the listed fields only, files by name", async () => {
    const { owner, own, ownContact, files } = await scene();
    const result = await view(own.id, owner.auth);
    expect(result).toEqual({
      ok: true,
      value: {
        collectionId: "pbc_solicitudes",
        collectionName: "solicitudes",
        id: own.id,
        created: "2026-03-10 17:00:00.000Z",
        updated: expect.stringMatching(PB_DATE),
        numero: "SOL-2026-0101",
        tipo: "cotizacion",
        estado: "nuevo",
        nombre: "Sofía Treviño",
        correo: owner.email,
        empresa: "Dispositivos Médicos del Centro",
        industria: "medica",
        servicio: "maquinado-cnc",
        cantidad: 50,
        leida: true,
        archivos: files.slice(0, 2).map((f) => `${f.id}_${f.originalName}`),
      },
    });
    // A name safe in a URL path, whatever the browser sent.
    expect(await view(files[2]!.solicitudId, STAFF)).toMatchObject({ ok: true, value: { archivos: [`${files[2]!.id}_plano_final_.._.pdf`] } });
    expect(await view(ownContact.id, owner.auth)).toMatchObject({ ok: true, value: { tipo: "contacto", empresa: "", cantidad: 0, leida: false, archivos: [] } });
  });

  it("shows staff every solicitud", async () => {
    await scene();
    expect(await numbers({}, STAFF)).toEqual(["SOL-2026-0101", "SOL-2026-0102", "SOL-2026-0103", "SOL-2026-0104"]);
    expect((await list({ filter: "leida = false" }, STAFF)).totalItems).toBe(3);
  });

  it("shows a customer only their own, whatever the filter; another's is 404", async () => {
    const { owner, other, others, anonymous } = await scene();
    expect(await numbers({}, owner.auth)).toEqual(["SOL-2026-0101", "SOL-2026-0102"]);
    expect((await list({}, owner.auth)).totalItems).toBe(2);
    expect(await numbers({ filter: "correo != '' || nombre != ''" }, owner.auth)).toEqual(["SOL-2026-0101", "SOL-2026-0102"]);
    expect(await numbers({ filter: `id = '${others.id}' || id = '${anonymous.id}'` }, owner.auth)).toEqual([]);
    expect(await numbers({ filter: "numero = 'SOL-2026-0103'" }, owner.auth)).toEqual([]);
    expect(statusOf(await view(others.id, owner.auth))).toBe(404);
    expect(statusOf(await view(anonymous.id, owner.auth))).toBe(404);
    expect(await numbers({}, other.auth)).toEqual(["SOL-2026-0103"]);
    // An anonymous request becomes the customer's once the account with its email is confirmed.
    await linkSolicitudesToUser(other.id, "anonima@ejemplo.mx");
    expect(await numbers({}, other.auth)).toEqual(["SOL-2026-0103", "SOL-2026-0104"]);
  });

  it("shows a guest nothing: an empty list and 404 for a record", async () => {
    const { own, anonymous } = await scene();
    expect(await list({ filter: "numero != ''" }, null)).toMatchObject({ totalItems: 0, totalPages: 0, items: [] });
    expect(statusOf(await view(own.id, null))).toBe(404);
    expect(statusOf(await view(anonymous.id, null))).toBe(404);
    expect(statusOf(await view("no-es-un-id", STAFF))).toBe(404);
  });

  it("refuses filters and sorts on fields not listed (400), and filters and sorts on listed ones", async () => {
    const { owner, files } = await scene();
    for (const filter of ["ip != ''", "userAgent ~ 'Firefox'", "user_agent != ''", "formToken != ''", "form_token != ''", "fingerprint = 'huella'", "phone != ''", "description ~ 'a'", "user_id != ''"]) {
      expect(statusOf(await listRecords(COLLECTIONS, "solicitudes", new URLSearchParams({ filter }), STAFF))).toBe(400);
    }
    expect(statusOf(await listRecords(COLLECTIONS, "solicitudes", new URLSearchParams({ sort: "-ip" }), STAFF))).toBe(400);
    expect(await numbers({ sort: "-created" }, STAFF)).toEqual(["SOL-2026-0104", "SOL-2026-0103", "SOL-2026-0102", "SOL-2026-0101"]);
    expect(await numbers({ sort: "-cantidad,numero" }, STAFF)).toEqual(["SOL-2026-0103", "SOL-2026-0101", "SOL-2026-0102", "SOL-2026-0104"]);
    expect(await numbers({ filter: "tipo = 'contacto'" }, owner.auth)).toEqual(["SOL-2026-0102"]);
    expect(await numbers({ filter: "archivos:length = 2 && archivos ?~ 'tapa'" }, owner.auth)).toEqual(["SOL-2026-0101"]);
    expect(await numbers({ filter: `archivos ?= '${files[0]!.id}_carcasa.stl'` }, STAFF)).toEqual(["SOL-2026-0101"]);
    expect(await numbers({ filter: "empresa ~ 'médicos' && industria = 'medica' && cantidad >= 50" }, owner.auth)).toEqual(["SOL-2026-0101"]);
  });
});
