// Units of a STEP or IGES file, and the customer's choice of another. Pure: runs in the CAD worker
// (detection) and in the /cotiza form (rescaling), and is unit-tested without a browser.
//
// The CAD kernel already converts the geometry to millimetres using the unit the file declares; what
// it cannot know is that a file was exported with the wrong unit (a part drawn in inches saved as
// "mm" is the classic case). So the form says which unit the file declares and lets the customer
// say what the numbers really are: the figures are rescaled from the declared unit to the chosen one.

/** Length units of CAD and mesh files; micrometres only come from 3MF (its `micron`). */
export type CadUnit = "um" | "mm" | "cm" | "m" | "in" | "ft";

/** Millimetres per unit. */
export const MM_PER_UNIT: Record<CadUnit, number> = { um: 0.001, mm: 1, cm: 10, m: 1000, in: 25.4, ft: 304.8 };

/** Spanish names, plural, as shown in the form ("Unidades detectadas: milímetros"). */
export const UNIT_NAMES: Record<CadUnit, string> = { um: "micrómetros", mm: "milímetros", cm: "centímetros", m: "metros", in: "pulgadas", ft: "pies" };

/** Geometry of one part in millimetres, as the CAD worker measures it from the tessellated B-rep. */
export interface CadFigures {
  volumeMm3: number;
  areaMm2: number;
  bbox: { x: number; y: number; z: number };
  triangles: number;
  closed: boolean;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The figures if the file's numbers were in `chosen` rather than in `declared` (null: the file says
 * nothing, and like STL we read millimetres). Lengths scale by the ratio, area by its square and
 * volume by its cube; results are rounded like a stored STL measurement.
 */
export function rescaleFigures(figures: CadFigures, declared: CadUnit | null, chosen: CadUnit): CadFigures {
  const factor = MM_PER_UNIT[chosen] / MM_PER_UNIT[declared ?? "mm"];
  return {
    volumeMm3: round3(figures.volumeMm3 * factor ** 3),
    areaMm2: round3(figures.areaMm2 * factor ** 2),
    bbox: { x: round3(figures.bbox.x * factor), y: round3(figures.bbox.y * factor), z: round3(figures.bbox.z * factor) },
    triangles: figures.triangles,
    closed: figures.closed,
  };
}

/** The units the customer can choose for a file: millimetres and inches, plus the declared one if it is another. */
export function unitChoices(declared: CadUnit | null): CadUnit[] {
  return declared && declared !== "mm" && declared !== "in" ? ["mm", "in", declared] : ["mm", "in"];
}

const SI_PREFIX: Record<string, CadUnit | undefined> = { "$": "m", ".MILLI.": "mm", ".CENTI.": "cm" };
const CONVERTED: Record<string, CadUnit | undefined> = { INCH: "in", IN: "in", FOOT: "ft", FT: "ft", MM: "mm", MILLIMETRE: "mm", MILLIMETER: "mm" };

/** The length unit of one STEP unit entity's text, if it is a length unit we know. */
function stepLengthUnit(entity: string): CadUnit | null {
  if (!/LENGTH_UNIT\s*\(/.test(entity)) return null;
  const converted = /CONVERSION_BASED_UNIT\s*\(\s*'([^']*)'/.exec(entity);
  if (converted) return CONVERTED[converted[1].trim().toUpperCase()] ?? null;
  const si = /SI_UNIT\s*\(\s*(\$|\.[A-Z]+\.)\s*,\s*\.METRE\.\s*\)/.exec(entity);
  return si ? (SI_PREFIX[si[1]] ?? null) : null;
}

/**
 * The length unit a STEP file (ISO 10303-21) declares for its geometry: the LENGTH_UNIT among the
 * units of its GLOBAL_UNIT_ASSIGNED_CONTEXT. Null when there is none we recognise.
 */
export function detectStepUnit(text: string): CadUnit | null {
  const contexts = text.matchAll(/GLOBAL_UNIT_ASSIGNED_CONTEXT\s*\(\s*\(([^)]*)\)/g);
  for (const context of contexts) {
    for (const ref of context[1].split(",").map((part) => part.trim())) {
      if (!/^#\d+$/.test(ref)) continue;
      const at = new RegExp(`(?:^|[\\s;])${ref}\\s*=`).exec(text);
      if (!at) continue;
      const end = text.indexOf(";", at.index + at[0].length);
      const unit = stepLengthUnit(text.slice(at.index + at[0].length, end === -1 ? undefined : end));
      if (unit) return unit;
    }
  }
  return null;
}

// IGES unit flag (global parameter 14) → unit; flag 3 means "see the unit name" (parameter 15).
const IGES_FLAGS: Record<number, CadUnit | undefined> = { 1: "in", 2: "mm", 4: "ft", 6: "m", 10: "cm" };
const IGES_NAMES: Record<string, CadUnit | undefined> = { IN: "in", INCH: "in", MM: "mm", FT: "ft", M: "m", CM: "cm" };

/** The Global section's parameters (columns 1–72 of the "G" lines), Hollerith strings decoded. */
function igesGlobalParameters(text: string): string[] {
  let global = "";
  for (const line of text.split(/\r?\n/)) {
    if (line.length >= 73 && line[72] === "G") global += line.slice(0, 72);
  }
  if (!global) return [];
  // Parameters 1 and 2 may redefine the delimiters; they are written as 1H<char> (or left empty).
  let param = ",";
  let record = ";";
  const values: string[] = [];
  let pos = 0;
  while (pos < global.length) {
    const hollerith = /^\s*(\d+)H/.exec(global.slice(pos));
    let value: string;
    if (hollerith) {
      const start = pos + hollerith[0].length;
      value = global.slice(start, start + Number(hollerith[1]));
      pos = start + value.length;
    } else {
      let end = pos;
      while (end < global.length && global[end] !== param && global[end] !== record) end++;
      value = global.slice(pos, end).trim();
      pos = end;
    }
    values.push(value);
    if (values.length === 1 && value.length === 1) param = value;
    if (values.length === 2 && value.length === 1) record = value;
    while (pos < global.length && global[pos] === " ") pos++;
    if (global[pos] === record) break;
    pos++; // the parameter delimiter
  }
  return values;
}

/** The length unit an IGES file declares in its Global section (unit flag, else unit name). */
export function detectIgesUnit(text: string): CadUnit | null {
  const values = igesGlobalParameters(text);
  const flag = Number(values[13]);
  const byFlag = IGES_FLAGS[flag];
  if (byFlag) return byFlag;
  const name = (values[14] ?? "").trim().toUpperCase();
  return IGES_NAMES[name] ?? null;
}

export type CadFormat = "step" | "iges";

/** STEP or IGES by extension (.step/.stp, .iges/.igs); null for anything else. */
export function cadFormat(fileName: string): CadFormat | null {
  if (/\.(step|stp)$/i.test(fileName)) return "step";
  if (/\.(iges|igs)$/i.test(fileName)) return "iges";
  return null;
}
