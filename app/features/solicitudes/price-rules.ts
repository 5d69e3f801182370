import type { SERVICE_OPTIONS } from "./forms";

// Indicative prices for the instant estimate on /cotiza. The staff's formal quote is the real price;
// these rules only have to land in the right order of magnitude for a part, honestly and the same in
// the browser and on the server. Figures: Querétaro shops, 2026, in integer centavos BEFORE IVA.
// Each rule has a low bound (cheapest usual process/material) and a high bound (most expensive usual one).

export type ServiceValue = (typeof SERVICE_OPTIONS)[number]["value"];

/** IVA in Mexico (16 %). Rules hold prices before IVA; what the public sees includes it. */
export const IVA_PERCENT = 16;

export interface Bounds {
  min: number;
  max: number;
}

/** 3D printing: price per cm³ of the part's own volume (covers material, infill, supports and machine time). */
export interface PartVolumeRule {
  kind: "volumen-pieza";
  /** What the low and high bounds stand for, shown next to the range (Spanish). */
  rangeNote: string;
  ratePerCm3Centavos: Bounds;
  /** Minimum charge per order: slicing, bed or build preparation and post-processing. */
  minimumOrderCentavos: Bounds;
}

/** CNC: raw stock (bounding box plus allowance) bought, and the volume turned into chips. */
export interface StockAndRemovalRule {
  kind: "material-y-remocion";
  rangeNote: string;
  /** Stock allowance per side for sawing and facing, in mm. */
  stockAllowanceMm: number;
  stockRatePerCm3Centavos: Bounds;
  removalRatePerCm3Centavos: Bounds;
  /** Minimum charge per order: CAM programming, fixturing and first-article check. */
  minimumOrderCentavos: Bounds;
}

export type PriceRule = PartVolumeRule | StockAndRemovalRule;

export const PRICE_RULES: Partial<Record<ServiceValue, PriceRule>> = {
  "prototipado-rapido": {
    kind: "volumen-pieza",
    rangeNote: "De impresión FDM en PLA o PETG a SLS en nylon PA12.",
    // Low: FDM in PLA/PETG, ~25 % infill, ~$5.00/cm³ of part. High: SLS in PA12 nylon, ~$22.00/cm³
    // (SLA resin sits in between, ~$10–14/cm³).
    ratePerCm3Centavos: { min: 500, max: 2_200 },
    // FDM jobs are rarely taken under ~$350; an SLS build slot is shared but still ~$1,200 minimum.
    minimumOrderCentavos: { min: 35_000, max: 120_000 },
  },
  "maquinado-cnc": {
    kind: "material-y-remocion",
    rangeNote: "De aluminio 6061 a acero inoxidable 304, con material en bruto incluido.",
    stockAllowanceMm: 3,
    // Aluminio 6061-T6 bar/plate ~$150/kg × 2.70 g/cm³ ≈ $0.40/cm³, plus cutting and handling → $0.55.
    // Acero inoxidable 304 ~$140/kg × 7.93 g/cm³ ≈ $1.10/cm³, plus cutting and handling → $1.30.
    stockRatePerCm3Centavos: { min: 55, max: 130 },
    // 3-axis VMC at ~$750/h removing ~6 cm³/min of aluminium on average (roughing + finishing) ≈ $2.10/cm³;
    // stainless at ~$950/h and ~1.2 cm³/min ≈ $13.00/cm³.
    removalRatePerCm3Centavos: { min: 210, max: 1_300 },
    // Programming and setup: ~$1,500 for a simple aluminium part, ~$3,000 in stainless.
    minimumOrderCentavos: { min: 150_000, max: 300_000 },
  },
};

export function getPriceRule(service: string | undefined | null): PriceRule | undefined {
  if (!service || !Object.hasOwn(PRICE_RULES, service)) return undefined;
  return PRICE_RULES[service as ServiceValue];
}

/**
 * Volume discount on the unit price: 8 % less each time the quantity is multiplied by 10, capped at
 * 30 % (1 → 0 %, 10 → 8 %, 100 → 16 %, 1,000 → 24 %, ≥ ~5,600 → 30 %). A smooth curve rather than tiers,
 * so one more piece never makes the order cheaper: the unit price never rises and the total never falls.
 */
export function volumeDiscount(quantity: number): number {
  return Math.min(0.3, 0.08 * Math.log10(normalizeQuantity(quantity)));
}

/** Whole pieces, at least one; anything unusable (undefined, NaN, 0, fractions) counts as what it floors to, minimum 1. */
export function normalizeQuantity(quantity: number | undefined | null): number {
  if (typeof quantity !== "number" || !Number.isFinite(quantity) || quantity < 1) return 1;
  return Math.floor(quantity);
}

/** Round half up to the whole centavo (amounts here are never negative). */
export function roundCentavos(amount: number): number {
  return Math.floor(amount + 0.5);
}

/**
 * Adds IVA to an integer amount in centavos and rounds half up to the centavo, in exact integer
 * arithmetic. (With 16 % an exact half never occurs — 116 × n is never 50 mod 100 — but the rule is stated.)
 */
export function addIva(centavosBeforeIva: number): number {
  if (!Number.isSafeInteger(centavosBeforeIva) || centavosBeforeIva < 0) throw new RangeError("addIva expects a whole, non-negative number of centavos");
  return Math.floor((centavosBeforeIva * (100 + IVA_PERCENT) + 50) / 100);
}

export interface PriceRange {
  minCentavos: number;
  maxCentavos: number;
}

/** The geometry a rule needs (a full MeshMetrics, or what a stored estimate kept). */
export interface PricedGeometry {
  volumeMm3: number;
  bbox: { x: number; y: number; z: number };
}

/** Largest pre-IVA amount whose IVA-included value is still computed exactly. */
const MAX_CENTAVOS = Math.floor(Number.MAX_SAFE_INTEGER / (100 + IVA_PERCENT));

/**
 * Indicative price range for `quantity` pieces, IVA included, in integer centavos; null when the
 * service has no rule (or the figures are beyond any sensible estimate).
 *
 * Per bound: unit cost from the rule → × quantity × (1 − volume discount) → at least the minimum
 * order → rounded half up to the centavo (before IVA) → IVA added and rounded half up again.
 */
export function estimatePrice(service: string | undefined | null, metrics: PricedGeometry, quantity: number | undefined | null): PriceRange | null {
  const rule = getPriceRule(service);
  if (!rule) return null;
  const pieces = normalizeQuantity(quantity);
  const factor = pieces * (1 - volumeDiscount(pieces));
  const partCm3 = Math.max(0, metrics.volumeMm3) / 1000;

  const bound = (which: keyof Bounds): number | null => {
    let unit: number;
    if (rule.kind === "volumen-pieza") {
      unit = partCm3 * rule.ratePerCm3Centavos[which];
    } else {
      const a = 2 * rule.stockAllowanceMm;
      const stockCm3 = ((metrics.bbox.x + a) * (metrics.bbox.y + a) * (metrics.bbox.z + a)) / 1000;
      const removedCm3 = Math.max(0, stockCm3 - partCm3);
      unit = stockCm3 * rule.stockRatePerCm3Centavos[which] + removedCm3 * rule.removalRatePerCm3Centavos[which];
    }
    const beforeIva = roundCentavos(Math.max(rule.minimumOrderCentavos[which], unit * factor));
    if (!Number.isFinite(beforeIva) || beforeIva > MAX_CENTAVOS) return null;
    return addIva(beforeIva);
  };

  const minCentavos = bound("min");
  const maxCentavos = bound("max");
  if (minCentavos === null || maxCentavos === null) return null;
  return { minCentavos, maxCentavos };
}
