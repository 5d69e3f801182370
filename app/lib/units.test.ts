import { describe, expect, it } from "vitest";
import { formatUnitQuantity, perUnit, unitName, unitWords } from "./units";

describe("formatUnitQuantity", () => {
  it.each([
    [1, "pieza", "1 pieza"],
    [2, "pieza", "2 piezas"],
    [0, "pieza", "0 piezas"],
    [10, "pieza", "10 piezas"],
    [1, "juego", "1 juego"],
    [2, "juego", "2 juegos"],
    [0, "juego", "0 juegos"],
    [1, "kit", "1 kit"],
    [2, "kit", "2 kits"],
    [0, "kit", "0 kits"],
    [1, "par", "1 par"],
    [2, "par", "2 pares"],
    [0, "par", "0 pares"],
    [1, "metro", "1 metro"],
    [2, "metro", "2 metros"],
    [0, "metro", "0 metros"],
    [1500, "metro", "1,500 metros"],
    [2.5, "metro", "2.5 metros"],
    [1, "kg", "1 kg"],
    [2, "kg", "2 kg"],
    [0, "kg", "0 kg"],
    [1, "kilogramo", "1 kilogramo"],
    [2, "kilogramo", "2 kilogramos"],
    [0, "kilogramo", "0 kilogramos"],
    [1, "lote", "1 lote"],
    [2, "lote", "2 lotes"],
    [0, "lote", "0 lotes"],
    [1, "hora", "1 hora"],
    [3, "hora", "3 horas"],
    [2, "servicio", "2 servicios"],
    [1.234, "pieza", "1.234 piezas"],
  ])("%d %s → %s", (quantity, unit, expected) => {
    expect(formatUnitQuantity(quantity, unit)).toBe(expected);
  });

  it("gives an unknown word the regular plural and leaves symbols alone", () => {
    expect(formatUnitQuantity(3, "rollo")).toBe("3 rollos");
    expect(formatUnitQuantity(3, "tambor")).toBe("3 tambores");
    expect(formatUnitQuantity(3, "luz")).toBe("3 luces");
    expect(formatUnitQuantity(3, "ml")).toBe("3 ml");
  });
});

describe("unit names", () => {
  it("names the unit in the singular and knows its gender", () => {
    expect(unitName("kg")).toBe("kilogramo");
    expect(perUnit("pieza")).toBe("por pieza");
    expect(perUnit("kg")).toBe("por kilogramo");
    expect(unitWords("pieza").feminine).toBe(true);
    expect(unitWords("juego").feminine).toBe(false);
  });
});
