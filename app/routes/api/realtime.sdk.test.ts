import fs from "node:fs";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { type RecordSubscription } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// PocketBase's realtime API as the official `pocketbase` SDK uses it, unchanged, against the real
// production server over HTTP (docs/decisions/0020): connect, subscribe as a guest and signed in,
// events checked against each subscriber's rule, unsubscribe, the errors of a bad subscription,
// and — the server restarted under the client — the SDK's own reconnect, after which events resume.
// Node has no EventSource of its own; the `eventsource` package is the WHATWG one.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("realtime-sdk"));

import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { postQuoteRequest } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { sdkClient } from "../../../tests/support/sdk-client";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const PASSWORD = "Fresadora-CNC-42";
const STAFF = { name: "Personal Tiempo Real", email: `personal-rt-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const A = { name: "Sofía Treviño", email: `sofia-rt-${process.pid}@ejemplo.mx` };

let server: TestServer | undefined;
let ipCounter = 0;

async function prepare(): Promise<void> {
  await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
  await registeredCustomer(A.name, A.email, PASSWORD);
}

const client = (): PocketBase => sdkClient(server!.url);

/** A quote request sent through /api/cotiza as a visitor would (not signed in): its number. */
function sendSolicitud(name: string): Promise<string> {
  ipCounter += 1;
  return postQuoteRequest(server!.url, { name, email: `visitante-${ipCounter}@ejemplo.mx`, ip: `10.91.0.${ipCounter}` });
}

/** Collects the events a subscription receives. */
function collector() {
  const events: RecordSubscription[] = [];
  return { events, push: (event: RecordSubscription) => void events.push(event) };
}

beforeAll(async () => {
  // The server's secret is this process's, so the form tokens made here are valid there.
  server = await startTestServer({ prepare, env: { AUTH_SECRET: getAuthSecret() } });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("realtime through the official SDK", { timeout: 90_000 }, () => {
  it("sends a new request to staff at once, and to no guest or customer", async () => {
    const staff = client();
    const customer = client();
    const guest = client();
    await staff.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    await customer.collection("users").authWithPassword(A.email, PASSWORD);
    const seen = { staff: collector(), customer: collector(), guest: collector() };
    const stops = [
      await staff.collection("solicitudes").subscribe("*", seen.staff.push),
      await customer.collection("solicitudes").subscribe("*", seen.customer.push),
      await guest.collection("solicitudes").subscribe("*", seen.guest.push),
    ];
    expect(staff.realtime.clientId).not.toBe("");

    const number = await sendSolicitud("Andrea Ruiz");
    await vi.waitFor(() => expect(seen.staff.events.map((event) => [event.action, event.record.numero])).toContainEqual(["create", number]), { timeout: 10_000 });
    const created = seen.staff.events.find((event) => event.action === "create")!;
    expect(created.record).toMatchObject({ collectionName: "solicitudes", tipo: "cotizacion", nombre: "Andrea Ruiz", estado: "nuevo" });

    // The staff event arrived, so any event for the others would have too.
    expect(seen.customer.events).toEqual([]);
    expect(seen.guest.events).toEqual([]);

    // Unsubscribed, staff hears nothing more.
    for (const stop of stops) await stop();
    const before = seen.staff.events.length;
    await sendSolicitud("Bruno Salas");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen.staff.events.length).toBe(before);
    for (const sdk of [staff, customer, guest]) sdk.realtime.unsubscribe();
  });

  it("answers a bad subscription with PocketBase's errors", async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server!.url}/api/realtime`, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });

    const unknown = await post({ clientId: "no-existe", subscriptions: ["productos/*"] });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ status: 404, message: "Missing or invalid client id.", data: {} });

    const blank = await post({ subscriptions: [] });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ status: 400, message: "An error occurred while validating the submitted data.", data: { clientId: { code: "validation_required" } } });

    const huge = await post(JSON.stringify({ clientId: "x", subscriptions: ["a".repeat(4 * 1024 * 1024)] }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ status: 413, message: "Request entity too large.", data: {} });

    const signIn = await fetch(`${server!.url}/api/collections/users/auth-with-password`, { method: "POST", body: JSON.stringify({ identity: "a".repeat(100_000), password: "x" }), headers: { "content-type": "application/json" } });
    expect(signIn.status).toBe(413);

    const garbage = await post("{no es json");
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({ status: 400, message: "An error occurred while loading the submitted data.", data: {} });
  });

  it("refuses to turn a signed-in client into someone else", async () => {
    const customer = client();
    await customer.collection("users").authWithPassword(A.email, PASSWORD);
    await customer.collection("cotizaciones").subscribe("*", () => {});
    const staff = client();
    await staff.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    const response = await fetch(`${server!.url}/api/realtime`, {
      method: "POST",
      body: JSON.stringify({ clientId: customer.realtime.clientId, subscriptions: ["solicitudes/*"] }),
      headers: { "content-type": "application/json", Authorization: staff.authStore.token },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ status: 403, message: "The current and the previous request authorization don't match.", data: {} });
    await customer.realtime.unsubscribe();
  });

  it("reconnects by itself after the server restarts, and events resume", async () => {
    const staff = client();
    await staff.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
    const seen = collector();
    let disconnects = 0;
    staff.realtime.onDisconnect = () => void (disconnects += 1);
    await staff.collection("solicitudes").subscribe("*", seen.push);
    const firstClient = staff.realtime.clientId;

    await server!.restart();
    await vi.waitFor(() => expect(staff.realtime.isConnected && staff.realtime.clientId !== firstClient).toBe(true), { timeout: 30_000, interval: 100 });
    expect(disconnects).toBeGreaterThan(0);

    const number = await sendSolicitud("Carla Núñez");
    await vi.waitFor(() => expect(seen.events.map((event) => event.record.numero)).toContain(number), { timeout: 10_000 });
    staff.realtime.unsubscribe();
  });

  it("treats a forged token as a guest's, as the record routes do", async () => {
    const guestish = client();
    guestish.authStore.save("token-falso", null);
    const seen = collector();
    await guestish.collection("solicitudes").subscribe("*", seen.push);
    await sendSolicitud("Diego Paz");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen.events).toEqual([]);
    guestish.realtime.unsubscribe();
  });
});
