import { formatMoney } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { perUnit } from "~/lib/units";

/** The public price: one unit with IVA, saying so; the net price in small print when asked. */
export function ProductPrice({ priceCentavos, ivaBp, unit, size = "card", showNet = false }: { priceCentavos: number; ivaBp: number; unit: string; size?: "card" | "page"; showNet?: boolean }) {
  const gross = priceWithIva(priceCentavos, ivaBp);
  return (
    <div>
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className={size === "page" ? "text-3xl font-bold text-acero-900" : "text-xl font-bold text-acero-900"} data-testid="precio-con-iva">
          {formatMoney(gross)}
        </span>
        <span className="text-sm text-acero-700">
          MXN {perUnit(unit)} · <span className="font-medium">IVA incluido</span>
        </span>
      </p>
      {showNet ? (
        <p className="mt-1 text-xs text-acero-600">
          {formatMoney(priceCentavos)} antes de IVA{ivaBp ? ` (IVA ${ivaBp / 100} %: ${formatMoney(gross - priceCentavos)})` : " (tasa 0 %)"}
        </p>
      ) : null}
    </div>
  );
}
