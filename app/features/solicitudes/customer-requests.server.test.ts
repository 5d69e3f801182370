import { describe, expect, it, vi } from "vitest";

// The quote requests a customer sees on /quotes while no sent quote answers them. Integration test
// on a real database; rows are inserted directly with Drizzle.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-customer-requests"));

import { randomUUID } from "node:crypto";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { quotes } from "~/db/schema/quotes";
import { listWaitingRequestsForCustomer } from "./customer-requests.server";
import { insertSolicitudes as insert, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

useSolicitudTestDatabase(dataDir);

async function aCustomer(name: string): Promise<string> {
  const id = randomUUID();
  await getDb().insert(user).values({ id, name, email: `${id}@ejemplo.mx`, emailVerified: true });
  return id;
}

describe("listWaitingRequestsForCustomer", () => {
  it("lists the customer's quote requests that no sent quote answers yet, newest first, and nobody else's", async () => {
    const [ana, beto] = [await aCustomer("Ana Ruiz"), await aCustomer("Beto Lara")];
    const [received, inReview, quotedDraft, quotedSent, closed, contact, betos, anonymous] = await insert(
      { userId: ana, status: "nuevo", service: "maquinado-cnc", createdAt: new Date("2026-11-20T17:00:00Z") },
      { userId: ana, status: "en_revision", createdAt: new Date("2026-11-22T17:00:00Z") },
      { userId: ana, status: "cotizado", service: "lamina", createdAt: new Date("2026-11-24T17:00:00Z") },
      { userId: ana, status: "cotizado", createdAt: new Date("2026-11-25T17:00:00Z") },
      { userId: ana, status: "descartado", createdAt: new Date("2026-11-26T17:00:00Z") },
      { userId: ana, type: "contacto", createdAt: new Date("2026-11-27T17:00:00Z") },
      { userId: beto, status: "nuevo" },
      { userId: null, status: "nuevo" },
    );
    const quote = (solicitudId: string, number: string, sentRevision: number | null) => ({
      number,
      solicitudId,
      customerUserId: ana,
      customerEmail: "ana@ejemplo.mx",
      customerName: "Ana Ruiz",
      sentRevision,
      status: sentRevision ? ("enviada" as const) : ("borrador" as const),
    });
    // A quote still a draft does not answer its request for the customer; a sent one does.
    await getDb().insert(quotes).values([quote(quotedDraft!.id, "COT-2026-90001", null), quote(quotedSent!.id, "COT-2026-90002", 1)]);

    const listed = await listWaitingRequestsForCustomer(ana);
    expect(listed).toEqual([
      { id: quotedDraft!.id, number: quotedDraft!.number, createdAt: new Date("2026-11-24T17:00:00Z"), service: "Corte láser, punzonado y doblez de lámina", stage: "en-preparacion" },
      { id: inReview!.id, number: inReview!.number, createdAt: new Date("2026-11-22T17:00:00Z"), service: null, stage: "en-revision" },
      { id: received!.id, number: received!.number, createdAt: new Date("2026-11-20T17:00:00Z"), service: "Maquinado CNC", stage: "recibida" },
    ]);
    for (const hidden of [quotedSent, closed, contact, betos, anonymous]) expect(listed.map((row) => row.id)).not.toContain(hidden!.id);
    expect((await listWaitingRequestsForCustomer(beto)).map((row) => row.id)).toEqual([betos!.id]);
  });
});
