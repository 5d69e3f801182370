import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// Integration tests of what a customer can read on a real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL), with the quotes kit: environment in tests/support/feature-test-env, clock,
// customers, drafts and outbox in tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-read"));

import { T0, at, aCustomer, LINE_A, draftQuote, sentQuote, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { listQuotesForCustomer } from "./list.server";
import { getQuoteForCustomer } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("getQuoteForCustomer and listQuotesForCustomer", () => {
  it("returns nothing for another customer's quote or a malformed id", async () => {
    const owner = await aCustomer("duena");
    const other = await aCustomer("otra");
    const { id } = await sentQuote(owner.email);
    expect(await getQuoteForCustomer(id, owner.id, T0)).not.toBeNull();
    expect(await getQuoteForCustomer(id, other.id, T0)).toBeNull();
    expect(await listQuotesForCustomer(other.id, T0)).toEqual([]);
    expect(await getQuoteForCustomer(randomUUID(), owner.id, T0)).toBeNull();
    for (const malformed of ["", "no-es-un-id", "123", `${id}x`, id.slice(0, -1), "../admin", `${id}' or '1'='1`]) {
      expect(await getQuoteForCustomer(malformed, owner.id, T0)).toBeNull();
    }
  });

  // BUG (read.server.ts, loadQuote): the id check /^[0-9a-f-]{36}$/i lets through 36-character
  // strings that are not UUIDs (36 hyphens, 36 hex digits), and PostgreSQL then throws
  // "invalid input syntax for type uuid" — a 500 instead of a 404. Flip to it() when fixed.
  it("returns nothing (rather than throwing) for 36-character ids that are not UUIDs", async () => {
    const owner = await aCustomer();
    for (const malformed of ["-".repeat(36), "a".repeat(36), "0123456789abcdef0123456789abcdef0123"]) {
      expect(await getQuoteForCustomer(malformed, owner.id, T0)).toBeNull();
    }
  });

  it("lists the customer's sent quotes, newest first, with the sent revision's total", async () => {
    const customer = await aCustomer();
    const older = await sentQuote(customer.email, {}, T0);
    const newer = await sentQuote(customer.email, { lines: [LINE_A] }, at(1));
    await draftQuote(customer.email);
    const list = await listQuotesForCustomer(customer.id, at(2));
    expect(list.map((row) => row.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({ number: newer.number, status: "enviada", totalCentavos: 10_729, ivaCentavos: 1_480, validUntil: at(31), sentAt: at(1) });
  });
});
