import { describe, expect, it } from "vitest";
import { emit, subscribe, subscribers } from "./events.server";

describe("domain events", () => {
  it("runs every subscriber in order, once per name, and keeps going past a failure", async () => {
    const seen: string[] = [];
    const offA = subscribe("cuenta.correo-confirmado", "prueba.a", ({ email }) => void seen.push(`a:${email}`));
    const offFail = subscribe("cuenta.correo-confirmado", "prueba.falla", () => {
      throw new Error("falla a propósito");
    });
    subscribe("cuenta.correo-confirmado", "prueba.b", async ({ userId }) => void seen.push(`b:${userId}`));
    // The same name again replaces the first handler instead of adding a second one.
    const offB = subscribe("cuenta.correo-confirmado", "prueba.b", async ({ userId }) => void seen.push(`b2:${userId}`));

    await emit("cuenta.correo-confirmado", { userId: "u1", email: "ana@planta.mx" });
    expect(seen).toEqual(["a:ana@planta.mx", "b2:u1"]);
    expect(subscribers("cuenta.correo-confirmado")).toEqual(expect.arrayContaining(["prueba.a", "prueba.falla", "prueba.b"]));

    offA();
    offFail();
    offB();
    seen.length = 0;
    await emit("cuenta.correo-confirmado", { userId: "u2", email: "luis@planta.mx" });
    expect(seen).toEqual([]);
  });
});
