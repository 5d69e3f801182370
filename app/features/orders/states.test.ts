import { describe, expect, it } from "vitest";
import { allowedActions, allowedTransitions, transitionRefusal } from "./states";

// The order workflow table, without a database (the refusals on a real order are in
// status-commands.server.test.ts).

describe("allowedTransitions", () => {
  it("lets a pay-at-pickup order be prepared before it is paid", () => {
    expect(allowedTransitions({ status: "pendiente_pago", delivery: "recoger", paymentMethod: "recoger" })).toEqual(["pagado", "en_preparacion", "cancelado"]);
    expect(allowedTransitions({ status: "en_preparacion", delivery: "envio", paymentMethod: "spei" })).toEqual(["enviado", "cancelado"]);
    expect(allowedTransitions({ status: "cancelado", delivery: "envio", paymentMethod: "spei" })).toEqual([]);
  });

  it("gives the staff page the same list as buttons, and refuses what it leaves out", () => {
    const order = { status: "en_preparacion", delivery: "recoger", paymentMethod: "spei" } as const;
    expect(allowedActions(order)).toEqual([
      { value: "listo_para_recoger", label: "Listo para recoger" },
      { value: "cancelado", label: "Cancelado" },
    ]);
    expect(transitionRefusal(order, "listo_para_recoger")).toBeNull();
    expect(transitionRefusal(order, "enviado")).toBe("Este pedido se recoge en planta: márquelo como «Listo para recoger», no como «Enviado».");
    expect(transitionRefusal({ ...order, delivery: "envio" }, "listo_para_recoger")).toBe("Este pedido se envía a domicilio: márquelo como «Enviado», no como «Listo para recoger».");
  });
});
