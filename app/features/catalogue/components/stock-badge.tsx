import { stockStatus } from "../stock";

const STYLES = {
  disponible: "bg-green-50 text-green-800 ring-green-200",
  pocas: "bg-amber-50 text-amber-900 ring-amber-200",
  "sobre-pedido": "bg-acero-100 text-acero-800 ring-acero-200",
} as const;

/** "En existencia", "Últimas 4 piezas" or "Sobre pedido", as a small pill. */
export function StockBadge({ stock, unit }: { stock: number; unit: string }) {
  const status = stockStatus(stock, unit);
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLES[status.level]}`} data-stock={status.level}>
      {status.label}
    </span>
  );
}
