import fs from "node:fs";
import { EventSource } from "eventsource";
import PocketBase, { getTokenPayload, type RecordSubscription } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// GET /cuenta/tiempo-real, the live pages' token (docs/decisions/0021), against the real production
// server over HTTP: a guest gets 401, a request from another site 403; a signed-in browser gets a
// short-lived token of its own account and kind that the official `pocketbase` SDK uses on the
// record API and on /api/realtime; signing out ends it.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("tiempo-real"));

import { getAuthSecret } from "~/services/security/secret.server";
import { registeredCustomer, signedInStaff } from "../../../tests/support/auth-requests";
import { postQuoteRequest } from "../../../tests/support/solicitud-requests";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const STAFF = { name: "Personal En Vivo", email: `personal-vivo-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const CUSTOMER = { name: "Renata Olvera", email: `renata-vivo-${process.pid}@ejemplo.mx` };
const SAME_ORIGIN = { "sec-fetch-site": "same-origin" };

let server: TestServer | undefined;
const cookies = { staff: "", customer: "" };
let customerId = "";
let ipCounter = 0;

async function prepare(): Promise<void> {
  cookies.staff = (await signedInStaff(STAFF.email, STAFF.password, STAFF.name)).cookie;
  const customer = await registeredCustomer(CUSTOMER.name, CUSTOMER.email);
  cookies.customer = customer.cookie;
  customerId = customer.id;
}

function liveToken(headers: Record<string, string>) {
  return fetch(`${server!.url}/cuenta/tiempo-real`, { headers, signal: AbortSignal.timeout(15_000) });
}

interface TokenAnswer {
  token: string;
  record: { id: string; collectionName: string; email: string };
}

async function tokenFor(cookie: string): Promise<TokenAnswer> {
  const response = await liveToken({ cookie, ...SAME_ORIGIN });
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as TokenAnswer;
}

function client(answer?: TokenAnswer): PocketBase {
  const sdk = new PocketBase(server!.url);
  sdk.autoCancellation(false);
  if (answer) sdk.authStore.save(answer.token, answer.record as never);
  return sdk;
}

/** A quote request sent through /api/cotiza as a visitor would: its number. */
function sendSolicitud(name: string): Promise<string> {
  ipCounter += 1;
  return postQuoteRequest(server!.url, { name, email: `visitante-vivo-${ipCounter}@ejemplo.mx`, ip: `10.92.0.${ipCounter}` });
}

beforeAll(async () => {
  // The server's secret is this process's: the session cookies and form tokens made here are valid there.
  server = await startTestServer({ prepare, env: { AUTH_SECRET: getAuthSecret() } });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("GET /cuenta/tiempo-real", { timeout: 90_000 }, () => {
  it("answers 401 without a session, and never a token", async () => {
    for (const headers of [SAME_ORIGIN, { ...SAME_ORIGIN, cookie: "forja.session_token=inventada.firma" }]) {
      const response = await liveToken(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toMatchObject({ status: 401, data: {} });
    }
  });

  it("refuses a request from another site with 403, even with the session cookie", async () => {
    const attempts: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://otro-sitio.example" },
      { "sec-fetch-site": "same-origin", origin: "https://otro-sitio.example" },
    ];
    for (const headers of attempts) {
      const response = await liveToken({ cookie: cookies.staff, ...headers });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.token).toBeUndefined();
    }
    // Its own origin, as a browser's fetch from the page sends it, is fine.
    expect((await liveToken({ cookie: cookies.staff, "sec-fetch-site": "same-origin", origin: server!.url })).status).toBe(200);
  });

  it("gives staff a short _superusers token that works on the record API and on realtime", async () => {
    const answer = await tokenFor(cookies.staff);
    expect(answer.record).toMatchObject({ collectionName: "_superusers", email: STAFF.email });
    const payload = getTokenPayload(answer.token) as { exp: number; iat: number; collectionId: string };
    expect(payload.exp - payload.iat).toBeGreaterThan(0);
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(15 * 60);

    const staff = client(answer);
    expect(staff.authStore.isValid).toBe(true);
    // Only staff may list requests: the list shows one sent now; a guest's shows none.
    const number = await sendSolicitud("Tomás Aguilar");
    const listed = await staff.collection("solicitudes").getList(1, 5, { filter: `numero = "${number}"` });
    expect(listed.items.map((item) => item.numero)).toEqual([number]);
    const asGuest = await client().collection("solicitudes").getList(1, 5, { filter: `numero = "${number}"` });
    expect(asGuest.items).toEqual([]);

    // Realtime: a request sent now reaches this token's subscriber.
    const events: RecordSubscription[] = [];
    const stop = await staff.collection("solicitudes").subscribe("*", (event) => void events.push(event));
    const next = await sendSolicitud("Úrsula Benítez");
    await vi.waitFor(() => expect(events.map((event) => [event.action, event.record.numero])).toContainEqual(["create", next]), { timeout: 10_000 });
    await stop();
    staff.realtime.unsubscribe();
  });

  it("gives a customer a users token of their own account, which dies when they sign out", async () => {
    const answer = await tokenFor(cookies.customer);
    expect(answer.record).toMatchObject({ collectionName: "users", id: customerId, email: CUSTOMER.email });
    const customer = client(answer);
    // `users` view rule: one's own record, and staff lists are closed to a customer.
    expect((await customer.collection("users").getOne(customerId)).email).toBe(CUSTOMER.email);
    const guestView = await client().collection("users").getOne(customerId).catch((error: { status: number }) => error.status);
    expect(guestView).toBe(404);

    const signedOut = await fetch(`${server!.url}/salir`, {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/" }),
      headers: { cookie: cookies.customer, origin: server!.url, "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(signedOut.status).toBe(302);

    // The token named that session: it is a guest's now, on the record API and on the token endpoint.
    const afterwards = await customer.collection("users").getOne(customerId).catch((error: { status: number }) => error.status);
    expect(afterwards).toBe(404);
    expect((await liveToken({ cookie: cookies.customer, ...SAME_ORIGIN })).status).toBe(401);
  });
});
