import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The realtime broker on a real database, in this process: record events go from a commit, through
// the triggers of migration 0009 and NOTIFY, to the SSE streams of subscribed clients, each one
// checked against the collection's view rule for that client (guest, customer A, customer B, staff).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("realtime-hub"));

import { getDatabase, getDb } from "~/db/client.server";
import { session } from "~/db/schema/auth";
import { quotes } from "~/db/schema/quotes";
import { user } from "~/db/schema/auth";
import { products } from "~/db/schema/catalogue";
import { createProduct } from "~/features/catalogue/product-commands.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { aSolicitud } from "../../../tests/support/quote-fixtures";
import { productValues } from "../../../tests/support/catalogue-fixtures";
import { anOrder } from "../../../tests/support/orders-fixtures";
import { aCustomer, createTestQuote, staff, useQuoteTestDatabase, type Customer } from "../../../tests/support/quote-fixtures";
import { TEST_STAFF } from "../../../tests/support/auth-requests";
import { connectRealtimeClient, publishToRealtimeClient, realtimeSettled, startRealtime, subscribeRealtimeClient, type RealtimeAuth } from "./index.server";

useQuoteTestDatabase(dataDir);

interface Frame {
  id: string;
  event: string;
  data: unknown;
}

/** A connected client reading its own stream, as the SDK's EventSource would. */
function openClient() {
  const { clientId, body } = connectRealtimeClient({ ip: "127.0.0.1" });
  const frames: Frame[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const field = (name: string) => block.split("\n").find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1) ?? "";
        frames.push({ id: field("id"), event: field("event"), data: JSON.parse(field("data")) });
      }
    }
  })();
  return {
    clientId,
    frames,
    /** The record events received so far (PB_CONNECT aside). */
    events: () => frames.filter((frame) => frame.event !== "PB_CONNECT").map((frame) => ({ topic: frame.event, ...(frame.data as { action: string; record: Record<string, unknown> }) })),
    close: async () => {
      await reader.cancel();
      await reading;
    },
  };
}

type Client = ReturnType<typeof openClient>;

async function sessionFor(customer: { id: string }, collection: RealtimeAuth["collection"]): Promise<RealtimeAuth> {
  const sessionId = randomUUID();
  await getDb().insert(session).values({ id: sessionId, token: randomUUID(), userId: customer.id, expiresAt: new Date(Date.now() + 3_600_000) });
  return { collection, id: customer.id, sessionId, expiresAt: new Date(Date.now() + 3_600_000) };
}

/** Waits until every notification heard so far has gone out. */
async function settled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await realtimeSettled();
}

let realtime: { stop: () => Promise<void> };
let A: Customer;
let B: Customer;
const clients = {} as Record<"guest" | "a" | "b" | "staff", Client>;
const auths = {} as Record<"a" | "b" | "staff", RealtimeAuth>;

beforeAll(async () => {
  realtime = await startRealtime(getDatabase());
  A = await aCustomer("tiempo-real-a");
  B = await aCustomer("tiempo-real-b");
  auths.a = await sessionFor(A, "users");
  auths.b = await sessionFor(B, "users");
  auths.staff = await sessionFor({ id: TEST_STAFF.id! }, "_superusers");
  for (const who of ["guest", "a", "b", "staff"] as const) clients[who] = openClient();
});

afterAll(async () => {
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await realtime.stop();
});

/** Replaces the client's subscriptions once what was committed before has been delivered, and forgets those events. */
async function subscribe(who: keyof typeof clients, topics: string[]): Promise<void> {
  await settled();
  const auth = who === "guest" ? null : auths[who];
  expect(await subscribeRealtimeClient(clients[who].clientId, { ip: "127.0.0.1", auth, subscriptions: topics })).toBe("ok");
  clients[who].frames.length = 1; // keep PB_CONNECT
}

describe("the realtime broker", () => {
  it("opens every stream with PB_CONNECT naming the client, as the id of every event", () => {
    for (const client of Object.values(clients)) {
      expect(client.frames[0]).toEqual({ id: client.clientId, event: "PB_CONNECT", data: { clientId: client.clientId } });
    }
  });

  it("sends a quote's events to staff and, once it is sent to them, to its customer; never to another customer or a guest", async () => {
    for (const who of ["guest", "a", "b", "staff"] as const) await subscribe(who, ["cotizaciones/*"]);
    const quote = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
    await settled();

    const staffEvents = clients.staff.events();
    expect(staffEvents[0]).toMatchObject({ topic: "cotizaciones/*", action: "create", record: { id: quote.id, collectionName: "cotizaciones", numero: quote.number } });
    expect(staffEvents.length).toBeGreaterThan(1);

    // The rule is checked as each event is sent, against the record as it is then: A hears of the
    // quote only in a state A may see (sent), never as a draft.
    const aEvents = clients.a.events();
    expect(aEvents.length).toBeGreaterThan(0);
    expect(aEvents.every((event) => event.record.id === quote.id && event.record.estado === "enviada")).toBe(true);
    expect(aEvents.at(-1)!.record).toMatchObject({ cliente: A.id, total: quote.totalCentavos / 100 });

    expect(clients.b.events()).toEqual([]);
    expect(clients.guest.events()).toEqual([]);
  });

  it("sends a message on a quote to staff and to the quote's owner only", async () => {
    const quote = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
    for (const who of ["guest", "a", "b", "staff"] as const) await subscribe(who, ["mensajes/*"]);
    expect((await addQuoteMessage(quote.id, staff, { body: "Ya tenemos su material.", fromStaff: true })).ok).toBe(true);
    await settled();
    for (const who of ["a", "staff"] as const) {
      expect(clients[who].events()).toEqual([{ topic: "mensajes/*", action: "create", record: expect.objectContaining({ cotizacion: quote.id, texto: "Ya tenemos su material.", personal: true }) }]);
    }
    expect(clients.b.events()).toEqual([]);
    expect(clients.guest.events()).toEqual([]);
  });

  it("sends a deleted record to whoever could see it before it went", async () => {
    const sent = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
    const draft = await createTestQuote({ name: A.name, email: A.email, userId: A.id }, { send: false });
    for (const who of ["guest", "a", "b", "staff"] as const) await subscribe(who, ["cotizaciones/*"]);
    await getDb().delete(quotes).where(eq(quotes.id, draft.id));
    await getDb().delete(quotes).where(eq(quotes.id, sent.id));
    await settled();

    const deleted = (who: keyof typeof clients) => clients[who].events().filter((event) => event.action === "delete").map((event) => event.record.id);
    expect(deleted("staff")).toEqual([draft.id, sent.id]);
    // A never saw the draft, so A is not told it went.
    expect(deleted("a")).toEqual([sent.id]);
    expect(clients.a.events().at(-1)!.record).toEqual({ collectionId: "pbc_cotizaciones", collectionName: "cotizaciones", id: sent.id });
    expect(deleted("b")).toEqual([]);
    expect(deleted("guest")).toEqual([]);
  });

  it("sends a record subscription only that record's events, with the fields the subscription asked for", async () => {
    const one = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
    const other = await createTestQuote({ name: A.name, email: A.email, userId: A.id });
    const topic = `cotizaciones/${one.id}?options=${encodeURIComponent(JSON.stringify({ query: { fields: "id,estado" } }))}`;
    await subscribe("a", [topic]);
    await getDb().update(quotes).set({ updatedAt: new Date() }).where(eq(quotes.id, other.id));
    await getDb().update(quotes).set({ updatedAt: new Date() }).where(eq(quotes.id, one.id));
    await settled();
    expect(clients.a.events()).toEqual([{ topic, action: "update", record: { id: one.id, estado: "enviada" } }]);
  });

  it("stops sending to a customer whose session ended: they are a guest again", async () => {
    const quote = await createTestQuote({ name: B.name, email: B.email, userId: B.id });
    await subscribe("b", ["cotizaciones/*"]);
    await getDb().delete(session).where(eq(session.id, auths.b.sessionId));
    await getDb().update(quotes).set({ updatedAt: new Date() }).where(eq(quotes.id, quote.id));
    await settled();
    expect(clients.b.events()).toEqual([]);
  });

  // The rest of the matrix: for each collection, a write and who hears of it.
  const matrix: { collection: string; hears: (keyof typeof clients)[]; write: () => Promise<string> }[] = [
    {
      collection: "productos",
      hears: ["guest", "a", "b", "staff"],
      write: async () => {
        const product = await createProduct(productValues({ active: true }));
        if (!product.ok) throw new Error("product not created");
        return product.value.id;
      },
    },
    {
      collection: "productos",
      hears: ["staff"],
      write: async () => {
        const product = await createProduct(productValues({ active: false }));
        if (!product.ok) throw new Error("product not created");
        await getDb().update(products).set({ stock: 3 }).where(eq(products.id, product.value.id));
        return product.value.id;
      },
    },
    { collection: "solicitudes", hears: ["a", "staff"], write: async () => (await aSolicitud({ userId: A.id })).id },
    { collection: "solicitudes", hears: ["staff"], write: async () => (await aSolicitud({ userId: null })).id },
    {
      collection: "pedidos",
      hears: ["a", "staff"],
      write: async () => {
        const product = await createProduct(productValues({ stock: 50 }));
        if (!product.ok) throw new Error("product not created");
        return (await anOrder(product.value.id, { userId: A.id, quantity: 2 })).orderId;
      },
    },
    {
      collection: "users",
      hears: ["a", "staff"],
      write: async () => {
        await getDb().update(user).set({ name: "Ana Torres Ruiz" }).where(eq(user.id, A.id));
        return A.id;
      },
    },
  ];

  for (const [index, { collection, hears, write }] of matrix.entries()) {
    it(`${collection} (${index + 1}): heard by ${hears.join(", ")} only`, async () => {
      // B signed in again (an earlier test ended B's session), so B is another customer, not a guest.
      auths.b = await sessionFor(B, "users");
      for (const who of ["guest", "a", "b", "staff"] as const) await subscribe(who, [`${collection}/*`]);
      const id = await write();
      await settled();
      for (const who of ["guest", "a", "b", "staff"] as const) {
        const heard = clients[who].events().filter((event) => event.record.id === id);
        if (hears.includes(who)) expect(heard.length, `${who} should hear ${collection}`).toBeGreaterThan(0);
        else expect(heard, `${who} must not hear ${collection}`).toEqual([]);
      }
    });
  }

  it("refuses a subscription from another address, or that would make a signed-in client someone else", async () => {
    await subscribe("a", ["cotizaciones/*"]);
    const request = { auth: auths.a, subscriptions: ["solicitudes/*"] };
    expect(await subscribeRealtimeClient(clients.a.clientId, { ...request, ip: "10.0.0.9" })).toBe("other-address");
    expect(await subscribeRealtimeClient(clients.a.clientId, { ...request, ip: "127.0.0.1", auth: auths.staff })).toBe("other-auth");
    expect(await subscribeRealtimeClient(clients.a.clientId, { ...request, ip: "127.0.0.1", auth: null })).toBe("other-auth");
    expect(await subscribeRealtimeClient("nadie", { ...request, ip: "127.0.0.1" })).toBe("unknown-client");
  });

  it("lets a client whose session ended sign in as someone else", async () => {
    const fresh = openClient();
    try {
      const old = await sessionFor(A, "users");
      expect(await subscribeRealtimeClient(fresh.clientId, { ip: "127.0.0.1", auth: old, subscriptions: ["cotizaciones/*"] })).toBe("ok");
      expect(await subscribeRealtimeClient(fresh.clientId, { ip: "127.0.0.1", auth: auths.staff, subscriptions: [] })).toBe("other-auth");
      await getDb().delete(session).where(eq(session.id, old.sessionId));
      expect(await subscribeRealtimeClient(fresh.clientId, { ip: "127.0.0.1", auth: auths.staff, subscriptions: [] })).toBe("ok");
    } finally {
      await fresh.close();
    }
  });

  it("closes the stream of a client that stops reading once a megabyte waits for it", async () => {
    const { clientId } = connectRealtimeClient({ ip: "127.0.0.1" }); // never read
    expect(await subscribeRealtimeClient(clientId, { ip: "127.0.0.1", auth: null, subscriptions: ["@oauth2"] })).toBe("ok");
    const bulk = "x".repeat(7_000);
    for (let index = 0; index < 200; index += 1) expect(await publishToRealtimeClient(clientId, "@oauth2", { bulk })).toBe(true);
    await settled();
    expect(await subscribeRealtimeClient(clientId, { ip: "127.0.0.1", auth: null, subscriptions: [] })).toBe("unknown-client");
  });

  it("sends a client message only from the address that opened the stream, and refuses one too large to pass on", async () => {
    await subscribe("guest", ["@oauth2"]);
    expect(await publishToRealtimeClient(clients.guest.clientId, "@oauth2", { code: "ajeno" }, { fromIp: "10.9.9.9" })).toBe(true);
    expect(await publishToRealtimeClient(clients.guest.clientId, "@oauth2", { code: "propio" }, { fromIp: "127.0.0.1" })).toBe(true);
    expect(await publishToRealtimeClient(clients.guest.clientId, "@oauth2", { code: "x".repeat(8_000) })).toBe(false);
    await settled();
    expect(clients.guest.frames.slice(1).map((frame) => frame.data)).toEqual([{ code: "propio" }]);
  });

  it("delivers a message for one client (the OAuth2 redirect) under the topic it subscribed to", async () => {
    await subscribe("guest", ["@oauth2"]);
    await subscribe("a", ["@oauth2"]);
    await publishToRealtimeClient(clients.guest.clientId, "@oauth2", { state: clients.guest.clientId, code: "abc" });
    await settled();
    expect(clients.guest.frames.slice(1)).toEqual([{ id: clients.guest.clientId, event: "@oauth2", data: { state: clients.guest.clientId, code: "abc" } }]);
    expect(clients.a.frames.slice(1)).toEqual([]);
  });
});
