import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// Integration tests of the customer ↔ staff messages on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), with the quotes kit: environment in tests/support/feature-test-env, clock,
// customers, drafts and outbox in tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-messages"));

import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { STAFF_TO, PUBLIC_URL, T0, at, staff, aCustomer, value, expectRefused, sentQuote, mails, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { createQuote } from "./create.server";
import { addQuoteMessage } from "./messages.server";
import { getQuoteForCustomer } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("messages", () => {
  it("a customer's message is stored and emailed to staff; a staff message to the customer", async () => {
    const customer = await aCustomer();
    const { id, number } = await sentQuote(customer.email);
    await getDb().delete(outbox);

    value(await addQuoteMessage(id, customer.actor, { body: "¿El precio incluye el anodizado?", fromStaff: false }));
    const [toStaff] = await mails();
    expect(toStaff).toMatchObject({ to: STAFF_TO, replyTo: customer.email, subject: `[${number}] Mensaje de Ana Torres` });
    expect(toStaff!.text).toContain("¿El precio incluye el anodizado?");
    expect(toStaff!.text).toContain(`${PUBLIC_URL}/admin/cotizaciones/${id}`);

    value(await addQuoteMessage(id, staff, { body: "Sí, anodizado natural incluido.", fromStaff: true }));
    const toCustomer = (await mails(customer.email)).at(-1);
    expect(toCustomer).toMatchObject({ subject: `Mensaje sobre su cotización ${number}` });
    expect(toCustomer!.text).toContain("Sí, anodizado natural incluido.");
    expect(toCustomer!.text).toContain(`${PUBLIC_URL}/quotes/${id}`);
    expect(await mails()).toHaveLength(2);

    const seen = (await getQuoteForCustomer(id, customer.id, at(1)))!;
    expect(seen.messages).toMatchObject([
      { authorName: customer.name, fromStaff: false, body: "¿El precio incluye el anodizado?" },
      { authorName: staff.name, fromStaff: true, body: "Sí, anodizado natural incluido." },
    ]);
    // The customer's view carries no user ids of staff (or anyone).
    for (const message of seen.messages) expect(message).not.toHaveProperty("authorId");
  });

  // BUG (messages.server.ts, addQuoteMessage): a staff message on a draft that has no customer email yet
  // (a blank quote) calls enqueueMail with to: "", whose schema throws a ZodError (a 500) instead of
  // a Spanish refusal. Flip to it() when fixed.
  it("refuses in Spanish a staff message on a quote without a customer email", async () => {
    const blank = value(await createQuote({ actor: staff }, T0));
    const result = await addQuoteMessage(blank.id, staff, { body: "Hola", fromStaff: true });
    expect(result.ok).toBe(false);
  });

  it("refuses a message on an unknown quote", async () => {
    expectRefused(await addQuoteMessage(randomUUID(), staff, { body: "Hola", fromStaff: true }), 404, "No encontramos esa cotización.");
    expect(await mails()).toHaveLength(0);
  });
});
