import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Integration tests of linking quotes to the account that confirms their email on a real database
// (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the quotes kit: environment in
// tests/support/feature-test-env, clock, customers, drafts and outbox in
// tests/support/quote-fixtures.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateQuotesTestEnv("quotes-link"));

import { getDb } from "~/db/client.server";
import { quotes } from "~/db/schema/quotes";
import { registerCustomer } from "~/features/accounts/registration.server";
import { confirmEmail } from "~/features/accounts/email-confirmation.server";
import { failureText, nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { T0, staff, aCustomer, value, draftQuote, sentQuote, quoteRow, mails, useQuoteTestDatabase } from "../../../tests/support/quote-fixtures";
import { createQuote } from "./create.server";
import { linkQuotesToUser } from "./link.server";
import { listQuotesForCustomer } from "./list.server";
import { getQuoteForCustomer } from "./read.server";

useQuoteTestDatabase(dataDir);

describe("linking quotes to accounts", () => {
  it("linkQuotesToUser links quotes by email, whatever the case, and only those not linked yet", async () => {
    const customer = await aCustomer("enlace");
    const someoneElse = await aCustomer("alguien");
    const mixedCase = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email.toUpperCase() }).where(eq(quotes.id, mixedCase.id));
    const lower = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email }).where(eq(quotes.id, lower.id));
    const alreadyLinked = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: customer.email, customerUserId: someoneElse.id }).where(eq(quotes.id, alreadyLinked.id));
    const otherEmail = value(await createQuote({ actor: staff }, T0));
    await getDb().update(quotes).set({ customerEmail: "nadie@ejemplo.mx" }).where(eq(quotes.id, otherEmail.id));

    expect(await linkQuotesToUser(customer.id, customer.email.replace(/^./, (c) => c.toUpperCase()))).toBe(2);
    expect((await quoteRow(mixedCase.id)).customerUserId).toBe(customer.id);
    expect((await quoteRow(lower.id)).customerUserId).toBe(customer.id);
    expect((await quoteRow(alreadyLinked.id)).customerUserId).toBe(someoneElse.id);
    expect((await quoteRow(otherEmail.id)).customerUserId).toBeNull();
    expect(await linkQuotesToUser(customer.id, customer.email)).toBe(0);
  });

  it("a visitor who registers with the quote's email sees it once the email is confirmed", async () => {
    const email = `visitante-${process.pid}@ejemplo.mx`;
    const { id, number } = await sentQuote(email);
    expect((await quoteRow(id)).customerUserId).toBeNull();

    const registered = await registerCustomer(requestMeta("/cuenta/registro", { ip: nextTestIp(), method: "POST" }), {
      name: "Visitante Nuevo",
      email: email.toUpperCase(),
      password: "Fresadora-CNC-42",
    });
    if (!registered.ok) throw new Error(failureText(registered));
    const userId = registered.value.user.id;

    // Not confirmed yet: an account with that email must not see the quote.
    expect((await quoteRow(id)).customerUserId).toBeNull();
    expect(await listQuotesForCustomer(userId, T0)).toEqual([]);
    expect(await getQuoteForCustomer(id, userId, T0)).toBeNull();

    const [confirmation] = (await mails(email)).filter((mail) => mail.subject === "Confirme su correo en Forja");
    const token = decodeURIComponent(confirmation!.text.match(/\/cuenta\/confirmar\?token=([^\s"'<>&]+)/)![1]!);
    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`, { ip: nextTestIp() }), token);
    expect(confirmed.ok).toBe(true);

    expect((await quoteRow(id)).customerUserId).toBe(userId);
    expect((await listQuotesForCustomer(userId, T0)).map((row) => row.number)).toEqual([number]);
    expect((await getQuoteForCustomer(id, userId, T0))!.quote).toMatchObject({ id, number, status: "enviada" });

    // Later quotes to that email join the account as soon as staff save them.
    const later = await draftQuote(email);
    expect((await quoteRow(later.id)).customerUserId).toBe(userId);
  });
});
