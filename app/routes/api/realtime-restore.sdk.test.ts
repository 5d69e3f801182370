import fs from "node:fs";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { type RecordSubscription } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Realtime subscribers across a restore (issue 17 §1, docs/decisions/0065), with the official SDK
// against the real production server over HTTP. A restore loads its rows with the triggers off, so
// no record event tells a subscriber what it replaced; instead every process closes its realtime
// streams when the restore ends, as after a restart: the SDK reconnects and resubscribes by itself
// (a new PB_CONNECT, which the live pages take as "reload what you show"), and events flow again.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("realtime-restore"));

import { getAuthSecret } from "~/services/security/secret.server";
import { signedInStaff } from "../../../tests/support/auth-requests";
import { postQuoteRequest } from "../../../tests/support/solicitud-requests";
import { sdkClient } from "../../../tests/support/sdk-client";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const STAFF = { name: "Personal Restauración", email: `personal-restaura-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const BACKUP = "antes_tiempo_real.zip";

let server: TestServer | undefined;
let ipCounter = 0;

function sendSolicitud(name: string): Promise<string> {
  ipCounter += 1;
  return postQuoteRequest(server!.url, { name, email: `visitante-restaura-${ipCounter}@ejemplo.mx`, ip: `10.92.0.${ipCounter}` });
}

async function staffClient(): Promise<PocketBase> {
  const client = sdkClient(server!.url);
  await client.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
  return client;
}

beforeAll(async () => {
  server = await startTestServer({ prepare: () => signedInStaff(STAFF.email, STAFF.password, STAFF.name).then(() => {}), env: { AUTH_SECRET: getAuthSecret() } });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("realtime across a restore", { timeout: 180_000 }, () => {
  it("closes the subscribers' streams when a restore ends: the SDK reconnects, resubscribes, and events resume", async () => {
    // Signed in before the backup, so their sessions are in the restored state too.
    const admin = await staffClient();
    const subscriber = await staffClient();
    await admin.backups.create(BACKUP);

    const seen: RecordSubscription[] = [];
    let connects = 0;
    let disconnects = 0;
    subscriber.realtime.onDisconnect = () => void (disconnects += 1);
    await subscriber.realtime.subscribe("PB_CONNECT", () => void (connects += 1));
    await subscriber.collection("solicitudes").subscribe("*", (event) => void seen.push(event));
    const firstClient = subscriber.realtime.clientId;

    // Events flow before the restore: a request made after the backup, which the restore removes.
    const replaced = await sendSolicitud("Mónica Restrepo");
    await vi.waitFor(() => expect(seen.map((event) => event.record.numero)).toContain(replaced), { timeout: 10_000 });
    const connectsBefore = connects;
    expect(disconnects).toBe(0);

    await admin.backups.restore(BACKUP);
    // The restore ends: the site answers again and the replaced state is kept as one more backup.
    await vi.waitFor(
      async () => {
        const list = await fetch(`${server!.url}/api/backups`, { headers: { Authorization: admin.authStore.token }, signal: AbortSignal.timeout(15_000) });
        expect(list.status).toBe(200);
        expect(((await list.json()) as { key: string }[]).some((backup) => backup.key.startsWith("forja_antes_de_restaurar_"))).toBe(true);
      },
      { timeout: 120_000, interval: 200 },
    );
    // The stream was closed and opened again by the SDK: a new client, a new PB_CONNECT. (The SDK
    // takes the new client id first and calls the PB_CONNECT listeners only after resubmitting the
    // subscriptions, so the listener's count is waited for too.)
    await vi.waitFor(
      () => {
        expect(subscriber.realtime.isConnected && subscriber.realtime.clientId !== firstClient).toBe(true);
        expect(connects).toBeGreaterThan(connectsBefore);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(disconnects).toBeGreaterThan(0);
    // No record event claimed anything about the replaced rows…
    expect(seen.map((event) => event.action)).toEqual(["create"]);
    // …and what a live page reloads on the new PB_CONNECT is the restored state.
    expect((await subscriber.collection("solicitudes").getFullList({ filter: `numero = "${replaced}"` })).length).toBe(0);

    // Events resume on the resubscribed stream.
    // (The restored numbering may hand out the replaced request's number again: counted by event.)
    const after = await sendSolicitud("Tomás Arreola");
    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 10_000 });
    expect(seen[1]).toMatchObject({ action: "create", record: { numero: after } });
    expect(seen[1]!.record.id).not.toBe(seen[0]!.record.id);
    subscriber.realtime.unsubscribe();
  });
});
