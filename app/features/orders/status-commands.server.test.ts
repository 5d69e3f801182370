import { asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// Staff moving orders through the workflow, on a real database: who and when, emails, stock
// returned on cancellation, refusals that record nothing.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("order-status"));

import { getDb } from "~/db/client.server";
import { orderEvents } from "~/db/schema/orders";
import { outbox } from "~/db/schema/outbox";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { anOrder, aProduct, clearBeforeEach, insertOrderPeople, staff, stockOf } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { changeOrderStatus } from "./status-commands.server";

useTestFileDatabase(dataDir, insertOrderPeople);
clearBeforeEach();

const SHIPPING = { delivery: "envio", calle: "Calle 5", numero: "10", colonia: "Centro", codigoPostal: "64000", municipio: "Monterrey", estado: "Nuevo León" };

/** A Result as the route answers it: ok with the new status, or the failure's HTTP status and message. */
function asTransition(result: Result<{ status: string; message: string }>) {
  return result.ok ? { ok: true, ...result.value } : { ok: false, status: failureStatus(result), message: failureMessages(result).formErrors.join(" ") };
}

describe("changeOrderStatus", () => {
  it("walks an envío order to entregado, recording who and when and emailing each step", async () => {
    const product = await aProduct();
    const order = await anOrder(product.id, { values: SHIPPING });
    for (const to of ["pagado", "en_preparacion", "enviado", "entregado"] as const) {
      const result = asTransition(await changeOrderStatus({ orderId: order.orderId, to, actor: staff, note: to === "enviado" ? "Guía 123456 de Estafeta" : null }));
      expect(result).toMatchObject({ ok: true, status: to });
    }
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId)).orderBy(asc(orderEvents.createdAt));
    expect(events.map((event) => [event.fromStatus, event.toStatus, event.actorName])).toEqual([
      [null, "pendiente_pago", "Alicia Torres"],
      ["pendiente_pago", "pagado", "Laura Méndez"],
      ["pagado", "en_preparacion", "Laura Méndez"],
      ["en_preparacion", "enviado", "Laura Méndez"],
      ["enviado", "entregado", "Laura Méndez"],
    ]);
    expect(events[3]!.actorId).toBe(staff.id);
    expect(events[3]!.note).toBe("Guía 123456 de Estafeta");
    const mail = await getDb().select({ subject: outbox.subject, text: outbox.text }).from(outbox).where(eq(outbox.to, "alicia@empresa.mx"));
    expect(mail.map((message) => message.subject)).toEqual(
      expect.arrayContaining([
        `Pedido ${order.number}: Pagado`,
        `Pedido ${order.number}: En preparación`,
        `Pedido ${order.number}: Enviado`,
        `Pedido ${order.number}: Entregado`,
      ]),
    );
    expect(mail.find((message) => message.subject.endsWith("Enviado"))?.text).toContain("Guía 123456 de Estafeta");
  });

  it("cancels and returns the stock, once", async () => {
    const product = await aProduct({ stock: 10 });
    const order = await anOrder(product.id, { quantity: 4 });
    expect(await stockOf(product.id)).toBe(6);
    await changeOrderStatus({ orderId: order.orderId, to: "pagado", actor: staff });
    const cancelled = asTransition(await changeOrderStatus({ orderId: order.orderId, to: "cancelado", actor: staff, note: "El cliente lo pidió" }));
    expect(cancelled).toMatchObject({ ok: true, message: expect.stringMatching(/inventario regresó/) });
    expect(await stockOf(product.id)).toBe(10);
    // A second cancel (another tab) is refused and returns nothing more.
    expect(asTransition(await changeOrderStatus({ orderId: order.orderId, to: "cancelado", actor: staff }))).toEqual({ ok: false, status: 409, message: "El pedido ya está «Cancelado»." });
    expect(await stockOf(product.id)).toBe(10);
    const mail = await getDb().select({ subject: outbox.subject }).from(outbox).where(eq(outbox.subject, `Pedido ${order.number}: Cancelado`));
    expect(mail).toHaveLength(1);
  });

  it("refuses illegal moves in Spanish and records nothing", async () => {
    const product = await aProduct({ stock: 10 });
    const pickup = await anOrder(product.id);
    const refusals = [
      [pickup.orderId, "enviado", "Un pedido «Pendiente de pago» no puede pasar a «Enviado». Puede pasar a: «Pagado», «Cancelado»."],
      [pickup.orderId, "entregado", "Un pedido «Pendiente de pago» no puede pasar a «Entregado». Puede pasar a: «Pagado», «Cancelado»."],
      [pickup.orderId, "pendiente_pago", "El pedido ya está «Pendiente de pago»."],
    ] as const;
    for (const [orderId, to, message] of refusals) {
      expect(asTransition(await changeOrderStatus({ orderId, to, actor: staff }))).toEqual({ ok: false, status: 409, message });
    }
    await changeOrderStatus({ orderId: pickup.orderId, to: "pagado", actor: staff });
    await changeOrderStatus({ orderId: pickup.orderId, to: "en_preparacion", actor: staff });
    expect(asTransition(await changeOrderStatus({ orderId: pickup.orderId, to: "enviado", actor: staff }))).toMatchObject({ ok: false, message: expect.stringMatching(/se recoge en planta/) });
    await changeOrderStatus({ orderId: pickup.orderId, to: "listo_para_recoger", actor: staff });
    expect(asTransition(await changeOrderStatus({ orderId: pickup.orderId, to: "cancelado", actor: staff }))).toMatchObject({ ok: false, message: "Un pedido «Listo para recoger» ya no se puede cancelar." });
    await changeOrderStatus({ orderId: pickup.orderId, to: "entregado", actor: staff });
    expect(asTransition(await changeOrderStatus({ orderId: pickup.orderId, to: "pagado", actor: staff }))).toMatchObject({ ok: false, message: "El pedido está «Entregado» y ya no admite cambios de estado." });
    expect(await stockOf(product.id)).toBe(9);
    expect(await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, pickup.orderId))).toHaveLength(5);

    expect(asTransition(await changeOrderStatus({ orderId: "no-es-un-id", to: "pagado", actor: staff }))).toMatchObject({ ok: false, status: 404 });
  });
});
