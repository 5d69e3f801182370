import { unitWords } from "~/lib/units";

// The catalogue's stock wording, apart from the forms: the public catalogue shows it on every card,
// and its pages should not load the form schemas (and zod) to say "En existencia".

export const LOW_STOCK_THRESHOLD = 10;

export type StockLevel = "disponible" | "pocas" | "sobre-pedido";

/** What a buyer reads about stock: "En existencia" (> 10), "Últimas N piezas" (1–10), "Sobre pedido" (0). */
export function stockStatus(stock: number, unit: string): { level: StockLevel; label: string } {
  if (stock > LOW_STOCK_THRESHOLD) return { level: "disponible", label: "En existencia" };
  if (stock <= 0) return { level: "sobre-pedido", label: "Sobre pedido" };
  const words = unitWords(unit);
  if (stock === 1) return { level: "pocas", label: `${words.feminine ? "Última" : "Último"} ${words.singular}` };
  return { level: "pocas", label: `${words.feminine ? "Últimas" : "Últimos"} ${stock} ${words.plural}` };
}
