import { formatNumber } from "./format";

// Units of sale (catalogue, cart, orders) and of quote lines, in es-MX: the one place that knows
// their singular and plural, so every page, email and PDF writes "10 piezas", never "10 pieza".

type UnitWords = { singular: string; plural: string; feminine: boolean; symbol?: string };

const UNIT_WORDS: Partial<Record<string, UnitWords>> = {
  pieza: { singular: "pieza", plural: "piezas", feminine: true },
  juego: { singular: "juego", plural: "juegos", feminine: false },
  kit: { singular: "kit", plural: "kits", feminine: false },
  par: { singular: "par", plural: "pares", feminine: false },
  metro: { singular: "metro", plural: "metros", feminine: false },
  // A symbol after a number never takes a plural: "1 kg", "25 kg" (NOM-008-SCFI).
  kg: { singular: "kilogramo", plural: "kilogramos", feminine: false, symbol: "kg" },
  kilogramo: { singular: "kilogramo", plural: "kilogramos", feminine: false },
  lote: { singular: "lote", plural: "lotes", feminine: false },
  hora: { singular: "hora", plural: "horas", feminine: true },
  servicio: { singular: "servicio", plural: "servicios", feminine: false },
};

const SYMBOLS = /^(g|kg|t|m|cm|mm|m2|m²|m3|m³|l|ml)$/i;

/** The words for a unit; an unknown word gets the regular Spanish plural, a symbol keeps its form. */
export function unitWords(unit: string): UnitWords {
  const known = UNIT_WORDS[unit.toLowerCase()];
  if (known) return known;
  if (SYMBOLS.test(unit)) return { singular: unit, plural: unit, feminine: false, symbol: unit };
  const plural = /[aeiouáéíóú]$/i.test(unit) ? `${unit}s` : /z$/i.test(unit) ? `${unit.slice(0, -1)}ces` : `${unit}es`;
  return { singular: unit, plural, feminine: false };
}

/** "1 pieza", "0 piezas", "1,500 metros", "2.5 metros", "5 kg": the quantity with its unit in the right number. */
export function formatUnitQuantity(quantity: number, unit: string): string {
  const words = unitWords(unit);
  // Whole quantities through formatNumber, which needs no Intl (see format.ts); fractions through Intl.
  const number = Number.isSafeInteger(quantity) ? formatNumber(quantity) : quantity.toLocaleString("es-MX", { maximumFractionDigits: 3 });
  return `${number} ${words.symbol ?? (quantity === 1 ? words.singular : words.plural)}`;
}

/** "pieza", "kilogramo". */
export function unitName(unit: string): string {
  return unitWords(unit).singular;
}

/** "por pieza", "por kilogramo". */
export function perUnit(unit: string): string {
  return `por ${unitName(unit)}`;
}
