import { describe, expect, it, vi } from "vitest";

// Who may see which order, on a real database: a customer only their own; a guest order only
// the placing browser, until the account with its email is confirmed.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("customer-orders"));

import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema/outbox";
import { renderedMail } from "~/services/mail/outbox.server";
import { failureMessages } from "~/lib/result";
import { nextTestIp, requestMeta } from "../../../tests/support/auth-requests";
import { alice, anOrder, aProduct, bruno, clearBeforeEach, insertOrderPeople } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { confirmEmail } from "~/features/accounts/email-confirmation.server";
import { registerCustomer } from "~/features/accounts/registration.server";
import { getCustomerOrder, listCustomerOrders } from "./customer-orders.server";
import { linkOrdersToUser } from "./link.server";

useTestFileDatabase(dataDir, insertOrderPeople);
clearBeforeEach();

describe("authorization", () => {
  it("shows a customer only their own orders; another customer's order is null", async () => {
    const product = await aProduct({ stock: 20 });
    const alices = await anOrder(product.id, { userId: alice });
    const brunos = await anOrder(product.id, { userId: bruno });
    const guests = await anOrder(product.id);

    expect((await getCustomerOrder(alices.number, { userId: alice, grantedNumbers: [] }))?.order.id).toBe(alices.orderId);
    expect(await getCustomerOrder(brunos.number, { userId: alice, grantedNumbers: [] })).toBeNull();
    expect(await getCustomerOrder(alices.number, { userId: null, grantedNumbers: [] })).toBeNull();
    // A guest order is the placing browser's only; an account's order needs that account, even with the cookie.
    expect(await getCustomerOrder(guests.number, { userId: alice, grantedNumbers: [] })).toBeNull();
    expect((await getCustomerOrder(guests.number, { userId: null, grantedNumbers: [guests.number] }))?.order.id).toBe(guests.orderId);
    expect(await getCustomerOrder(alices.number, { userId: bruno, grantedNumbers: [alices.number] })).toBeNull();
    expect(await getCustomerOrder("PED-2026-9999", { userId: alice, grantedNumbers: [] })).toBeNull();
    expect(await getCustomerOrder("'; drop table orders; --", { userId: alice, grantedNumbers: [] })).toBeNull();

    expect((await listCustomerOrders(alice)).map((row) => row.number)).toEqual([alices.number]);
    expect((await listCustomerOrders(bruno)).map((row) => row.number)).toEqual([brunos.number]);
  });
});

describe("guest orders and accounts", () => {
  it("a guest order joins the account that confirms its email, and only once the email is confirmed", async () => {
    const product = await aProduct({ stock: 20 });
    const email = `invitada-${process.pid}@ejemplo.mx`;
    const guest = await anOrder(product.id, { values: { email } });
    const someoneElse = await anOrder(product.id, { values: { email: "otra.persona@ejemplo.mx" } });

    const registered = await registerCustomer(requestMeta("/registro", { ip: nextTestIp(), method: "POST" }), {
      name: "Invitada Nueva",
      email: email.toUpperCase(),
      password: "Fresadora-CNC-42",
    });
    if (!registered.ok) throw new Error(failureMessages(registered).formErrors.join(" "));
    const userId = registered.value.user.id;
    // Anyone can type an email at registration: nothing joins before it is confirmed.
    expect(await listCustomerOrders(userId)).toEqual([]);
    expect(await getCustomerOrder(guest.number, { userId, grantedNumbers: [] })).toBeNull();

    const [confirmation] = (await getDb().select().from(outbox)).map(renderedMail).filter((mail) => mail.subject === "Confirme su correo en Forja");
    const token = decodeURIComponent(confirmation!.text.match(/\/cuenta\/confirmar\?token=([^\s"'<>&]+)/)![1]!);
    const confirmed = await confirmEmail(requestMeta(`/cuenta/confirmar?token=${encodeURIComponent(token)}`, { ip: nextTestIp() }), token);
    expect(confirmed.ok).toBe(true);

    expect((await listCustomerOrders(userId)).map((row) => row.number)).toEqual([guest.number]);
    expect((await getCustomerOrder(guest.number, { userId, grantedNumbers: [] }))?.order.id).toBe(guest.orderId);
    // Now the account's: the placing browser's cookie alone no longer opens it.
    expect(await getCustomerOrder(guest.number, { userId: null, grantedNumbers: [guest.number] })).toBeNull();
    expect(await getCustomerOrder(someoneElse.number, { userId, grantedNumbers: [] })).toBeNull();
  });

  it("linkOrdersToUser matches the email in any case and leaves orders another account owns", async () => {
    const product = await aProduct({ stock: 20 });
    const upper = await anOrder(product.id, { values: { email: "Compras@Planta.MX" } });
    const brunos = await anOrder(product.id, { userId: bruno, values: { email: "compras@planta.mx" } });
    expect(await linkOrdersToUser(alice, "compras@planta.mx")).toBe(1);
    expect((await listCustomerOrders(alice)).map((row) => row.number)).toEqual([upper.number]);
    expect((await listCustomerOrders(bruno)).map((row) => row.number)).toEqual([brunos.number]);
    expect(await linkOrdersToUser(alice, "COMPRAS@PLANTA.MX")).toBe(0);
  });
});
