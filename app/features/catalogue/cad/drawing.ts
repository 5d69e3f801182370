// A catalogue part's technical drawing as one standalone SVG in the house style: an A3 landscape
// sheet with a border, the three orthographic views in first-angle projection (ISO 5456-2 method E:
// the top view below the front view, the right view to its left; see projections.ts), the isometric
// view in the free quadrant, the overall dimensions, the notes and the title block with the
// first-angle symbol. Pure: it runs wherever the projections are available.

import type { DrawingInput, ViewName, ViewProjection } from "./types";

const SHEET = { width: 420, height: 297 };
/** Pixels per sheet millimetre in the width/height attributes (an `<img>` takes its ratio from them). */
const PIXELS_PER_MM = 3;
const MARGIN = 10;
const TITLE = { width: 180, height: 36 };
/** Space between views, and reserved above the top row and right of the front view for dimensions. */
const GAP = 16;
const DIM_TOP = 13;
const DIM_RIGHT = 11;
const DIM_OFFSET = 8;

const INK = "#171e26";
const HIDDEN_INK = "#4a5a6c";
const MUTED = "#5b6776";
const ACCENT = "#c2410c";
const FONT = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";

const VISIBLE_WIDTH = 0.5;
const ISO_WIDTH = 0.35;
const HIDDEN_WIDTH = 0.25;
const HIDDEN_DASH = [2.4, 1.2];
const THIN = 0.18;

const ARROW_LENGTH = 2.8;
const ARROW_HALF_WIDTH = 0.5;
const DIM_TEXT = 3.5;

const millimetres = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2, useGrouping: false });

/** A dimension value as written on the drawing: "152.4", "20", no trailing zeros. */
export function formatDimension(value: number): string {
  return millimetres.format(Math.round(value * 100) / 100 + 0);
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

interface Placement {
  /** sheet = offset + scale · view */
  x: number;
  y: number;
  scale: number;
}

/** The complete SVG document of a part's drawing. */
export function drawingSvg(input: DrawingInput): string {
  const area: Box = {
    minX: MARGIN + 8,
    minY: MARGIN + 6,
    maxX: SHEET.width - MARGIN - 6,
    maxY: SHEET.height - MARGIN - TITLE.height - 8,
  };
  const placements = layOut(input.views, area);
  const body = [
    `<rect width="${SHEET.width}" height="${SHEET.height}" fill="#fff"/>`,
    `<rect x="${MARGIN}" y="${MARGIN}" width="${SHEET.width - 2 * MARGIN}" height="${SHEET.height - 2 * MARGIN}" fill="none" stroke="${INK}" stroke-width="0.35"/>`,
    ...(["front", "top", "right", "iso"] as const).map((name) => viewSvg(input.views[name], placements[name])),
    dimensionsSvg(input, placements),
    notesSvg(input.notes.map((note) => note.text)),
    titleBlockSvg(input),
  ];
  const size = [input.size.x, input.size.y, input.size.z].map(formatDimension).join(" × ");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SHEET.width} ${SHEET.height}" width="${SHEET.width * PIXELS_PER_MM}" height="${SHEET.height * PIXELS_PER_MM}" role="img" font-family="${FONT}">`,
    `<title>${escapeXml(`Dibujo técnico: ${input.title}`)}</title>`,
    `<desc>${escapeXml(`${input.codeLabel ?? "SKU"} ${input.sku}. Vistas frontal, superior, lateral derecha e isométrica en proyección de primer ángulo. Medidas generales: ${size} mm.`)}</desc>`,
    ...body.filter(Boolean),
    `</svg>`,
  ].join("\n");
}

// --- Layout --------------------------------------------------------------------------------------

function width(box: Box): number {
  return box.maxX - box.minX;
}

function height(box: Box): number {
  return box.maxY - box.minY;
}

/** An empty view still takes a little room, so the scale stays finite. */
function sized(box: Box): Box {
  const w = Math.max(width(box), 1);
  const h = Math.max(height(box), 1);
  return { minX: box.minX, minY: box.minY, maxX: box.minX + w, maxY: box.minY + h };
}

/**
 * One scale for the three orthographic views (first angle: right | front over — | top), the
 * isometric view scaled on its own into the free lower-left quadrant, all centred on the sheet.
 */
function layOut(views: Record<ViewName, ViewProjection>, area: Box): Record<ViewName, Placement> {
  const front = sized(views.front.box);
  const top = sized(views.top.box);
  const right = sized(views.right.box);
  const iso = sized(views.iso.box);
  const areaWidth = width(area);
  const areaHeight = height(area);

  const fit = Math.min(
    (areaWidth - GAP - DIM_RIGHT) / (width(right) + width(front)),
    (areaHeight - DIM_TOP - GAP) / (height(front) + height(top)),
  );
  // Shrink the orthographic views a little if that lets the isometric view grow to about their scale.
  let best = { scale: fit, isoScale: 0, score: -1 };
  for (let factor = 1; factor >= 0.6 - 1e-9; factor -= 0.05) {
    const scale = fit * factor;
    const freeWidth = areaWidth - DIM_RIGHT - width(front) * scale - GAP;
    const freeHeight = areaHeight - DIM_TOP - height(front) * scale - GAP;
    const isoScale = Math.max(0, Math.min(freeWidth / width(iso), freeHeight / height(iso), scale));
    const score = Math.min(scale, isoScale / 0.75);
    if (score > best.score + 1e-9) best = { scale, isoScale, score };
  }
  const s = best.scale;

  // Local frame: the orthographic group against the top-right corner of the area.
  const frontLeft = areaWidth - DIM_RIGHT - width(front) * s;
  const frontTop = DIM_TOP;
  const placements: Record<ViewName, Placement> = {
    front: { x: frontLeft - front.minX * s, y: frontTop - front.minY * s, scale: s },
    // Same model X as the front view: same horizontal offset.
    top: { x: frontLeft - front.minX * s, y: frontTop + height(front) * s + GAP - top.minY * s, scale: s },
    // Same model Z as the front view: same vertical offset.
    right: { x: frontLeft - GAP - right.maxX * s, y: frontTop - front.minY * s, scale: s },
    iso: { x: 0, y: 0, scale: best.isoScale },
  };
  const rightBox = placed(right, placements.right);
  const topBox = placed(top, placements.top);
  const isoWidth = width(iso) * best.isoScale;
  const isoHeight = height(iso) * best.isoScale;
  const freeRight = topBox.minX - GAP;
  const freeTop = rightBox.maxY + GAP;
  const isoLeft = clamp((rightBox.minX + rightBox.maxX) / 2 - isoWidth / 2, 0, freeRight - isoWidth);
  const isoTop = clamp((topBox.minY + topBox.maxY) / 2 - isoHeight / 2, freeTop, areaHeight - isoHeight);
  placements.iso = { x: isoLeft - iso.minX * best.isoScale, y: isoTop - iso.minY * best.isoScale, scale: best.isoScale };

  // Centre everything (dimension room included) in the area.
  const frontBox = placed(front, placements.front);
  const used: Box = {
    minX: Math.min(rightBox.minX, isoLeft),
    minY: frontBox.minY - DIM_TOP,
    maxX: frontBox.maxX + DIM_RIGHT,
    maxY: Math.max(topBox.maxY, isoTop + isoHeight),
  };
  const dx = area.minX + (areaWidth - width(used)) / 2 - used.minX;
  const dy = area.minY + (areaHeight - height(used)) / 2 - used.minY;
  for (const placement of Object.values(placements)) {
    placement.x += dx;
    placement.y += dy;
  }
  return placements;
}

function placed(box: Box, placement: Placement): Box {
  return {
    minX: placement.x + box.minX * placement.scale,
    minY: placement.y + box.minY * placement.scale,
    maxX: placement.x + box.maxX * placement.scale,
    maxY: placement.y + box.maxY * placement.scale,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

// --- Views ---------------------------------------------------------------------------------------

function viewSvg(view: ViewProjection, placement: Placement): string {
  if (view.visible.length === 0 && view.hidden.length === 0) return "";
  if (!(placement.scale > 0)) return "";
  const s = placement.scale;
  const lineWidth = view.name === "iso" ? ISO_WIDTH : VISIBLE_WIDTH;
  const parts = [`<g data-view="${view.name}" transform="translate(${n(placement.x)} ${n(placement.y)}) scale(${s.toPrecision(6)})" fill="none">`];
  if (view.hidden.length > 0) {
    parts.push(
      `<path d="${view.hidden.join("")}" stroke="${HIDDEN_INK}" stroke-width="${(HIDDEN_WIDTH / s).toPrecision(4)}" stroke-dasharray="${HIDDEN_DASH.map((d) => (d / s).toPrecision(4)).join(" ")}"/>`,
    );
  }
  if (view.visible.length > 0) {
    parts.push(
      `<path d="${view.visible.join("")}" stroke="${INK}" stroke-width="${(lineWidth / s).toPrecision(4)}" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  }
  parts.push(`</g>`);
  return parts.join("");
}

// --- Dimensions ----------------------------------------------------------------------------------

function dimensionsSvg(input: DrawingInput, placements: Record<ViewName, Placement>): string {
  const parts: string[] = [];
  const front = input.views.front;
  if (front.visible.length > 0) {
    const box = placed(front.box, placements.front);
    parts.push(horizontalDimension(box.minX, box.maxX, box.minY, box.minY - DIM_OFFSET, input.size.x));
    parts.push(verticalDimension(box.minY, box.maxY, box.maxX, box.maxX + DIM_OFFSET, input.size.z));
  }
  const right = input.views.right;
  if (right.visible.length > 0) {
    const box = placed(right.box, placements.right);
    parts.push(horizontalDimension(box.minX, box.maxX, box.minY, box.minY - DIM_OFFSET, input.size.y));
  }
  if (parts.length === 0) return "";
  return `<g stroke="${INK}" stroke-width="${THIN}" fill="${INK}">${parts.join("")}</g>`;
}

/** Extension lines from the outline at `edge` past the dimension line at `at`, arrows, value above. */
function horizontalDimension(x0: number, x1: number, edge: number, at: number, value: number): string {
  const direction = Math.sign(at - edge) || -1;
  const extension = (x: number) => `M${n(x)} ${n(edge + direction * 1.5)}V${n(at + direction * 1.5)}`;
  const outside = x1 - x0 < 2 * ARROW_LENGTH + 1;
  const line = outside
    ? `M${n(x0 - ARROW_LENGTH - 3)} ${n(at)}H${n(x1 + ARROW_LENGTH + 3)}`
    : `M${n(x0)} ${n(at)}H${n(x1)}`;
  const arrows = outside
    ? arrow(x0, at, 1, 0) + arrow(x1, at, -1, 0)
    : arrow(x0, at, -1, 0) + arrow(x1, at, 1, 0);
  const label = formatDimension(value);
  // A value wider than a short dimension is written past its end.
  const beside = outside && textWidth(label, DIM_TEXT) > x1 - x0 - 1;
  const textX = beside ? x1 + ARROW_LENGTH + 3.5 : (x0 + x1) / 2;
  return (
    `<path fill="none" d="${extension(x0)}${extension(x1)}${line}"/>${arrows}` +
    `<text x="${n(textX)}" y="${n(at - 1.2)}" font-size="${DIM_TEXT}" text-anchor="${beside ? "start" : "middle"}" stroke="none">${label}</text>`
  );
}

function verticalDimension(y0: number, y1: number, edge: number, at: number, value: number): string {
  const direction = Math.sign(at - edge) || 1;
  const extension = (y: number) => `M${n(edge + direction * 1.5)} ${n(y)}H${n(at + direction * 1.5)}`;
  const outside = y1 - y0 < 2 * ARROW_LENGTH + 1;
  const line = outside
    ? `M${n(at)} ${n(y0 - ARROW_LENGTH - 3)}V${n(y1 + ARROW_LENGTH + 3)}`
    : `M${n(at)} ${n(y0)}V${n(y1)}`;
  const arrows = outside
    ? arrow(at, y0, 0, 1) + arrow(at, y1, 0, -1)
    : arrow(at, y0, 0, -1) + arrow(at, y1, 0, 1);
  const label = formatDimension(value);
  const beside = outside && textWidth(label, DIM_TEXT) > y1 - y0 - 1;
  // Read from the right, as ISO 129 writes vertical values; past the upper end when it does not fit.
  const x = at - 1.2;
  const y = beside ? y0 - ARROW_LENGTH - 3.5 : (y0 + y1) / 2;
  return (
    `<path fill="none" d="${extension(y0)}${extension(y1)}${line}"/>${arrows}` +
    `<text x="${n(x)}" y="${n(y)}" transform="rotate(-90 ${n(x)} ${n(y)})" font-size="${DIM_TEXT}" text-anchor="${beside ? "start" : "middle"}" stroke="none">${label}</text>`
  );
}

/** A filled arrowhead with its tip at (x, y), pointing along (dx, dy) from its base. */
function arrow(x: number, y: number, dx: number, dy: number): string {
  // The base sits behind the tip, against the pointing direction.
  const bx = x - dx * ARROW_LENGTH;
  const by = y - dy * ARROW_LENGTH;
  const px = -dy * ARROW_HALF_WIDTH;
  const py = dx * ARROW_HALF_WIDTH;
  return `<path stroke="none" d="M${n(x)} ${n(y)}L${n(bx + px)} ${n(by + py)}L${n(bx - px)} ${n(by - py)}Z"/>`;
}

// --- Notes and title block -----------------------------------------------------------------------

function notesSvg(notes: string[]): string {
  if (notes.length === 0) return "";
  const left = MARGIN + 4;
  const top = SHEET.height - MARGIN - TITLE.height;
  const available = SHEET.width - MARGIN - TITLE.width - 6 - left;
  const numbered = notes.map((note, index) => `${index + 1}. ${note}`);
  const options = [
    { size: 3, columns: 1 },
    { size: 3, columns: 2 },
    { size: 2.5, columns: 2 },
    { size: 2.2, columns: 3 },
  ];
  for (const [index, option] of options.entries()) {
    const lineHeight = option.size * 1.45;
    const columnWidth = (available - (option.columns - 1) * 6) / option.columns;
    const rows = Math.floor((TITLE.height - 7) / lineHeight);
    const lines = numbered.flatMap((note) => wrap(note, columnWidth, option.size, 3));
    const isLast = index === options.length - 1;
    if (lines.length > rows * option.columns && !isLast) continue;
    const shown = lines.slice(0, rows * option.columns);
    if (shown.length < lines.length) shown[shown.length - 1] = ellipsize(shown[shown.length - 1]);
    const texts = shown.map((line, i) => {
      const column = Math.floor(i / rows);
      const x = left + column * (columnWidth + 6);
      const y = top + 7 + lineHeight * (i % rows) + option.size * 0.8;
      return `<text x="${n(x)}" y="${n(y)}">${escapeXml(line)}</text>`;
    });
    return (
      `<g fill="${INK}" font-size="${option.size}">` +
      `<text x="${n(left)}" y="${n(top + 3.6)}" font-size="3" font-weight="700">Notas</text>` +
      `${texts.join("")}</g>`
    );
  }
  return "";
}

function titleBlockSvg(input: DrawingInput): string {
  const x0 = SHEET.width - MARGIN - TITLE.width;
  const y0 = SHEET.height - MARGIN - TITLE.height;
  const x1 = SHEET.width - MARGIN;
  const y1 = SHEET.height - MARGIN;
  const headerBottom = y0 + 8;
  const nameBottom = headerBottom + 12;
  const symbolLeft = x1 - 36;

  const parts: string[] = [
    `<rect x="${x0}" y="${y0}" width="${TITLE.width}" height="${TITLE.height}" fill="#fff" stroke="${INK}" stroke-width="0.35"/>`,
    `<path d="M${x0} ${nameBottom}H${symbolLeft}M${symbolLeft} ${headerBottom}V${y1}" fill="none" stroke="${INK}" stroke-width="${THIN}"/>`,
    `<path d="M${x0} ${headerBottom}H${x1}" stroke="${ACCENT}" stroke-width="0.7"/>`,
    `<text x="${x0 + 3}" y="${y0 + 5.6}" font-size="4" font-weight="700" fill="${INK}">Forja Diseño y Manufactura</text>`,
    `<text x="${x1 - 3}" y="${y0 + 5.6}" font-size="2.6" text-anchor="end" fill="${MUTED}">Dibujo técnico</text>`,
    field(x0, headerBottom, symbolLeft - x0, 12, "Pieza", input.title, 4, true),
  ];

  const material = input.material?.trim();
  const cells: { label: string; value: string; width: number }[] = [
    { label: input.codeLabel ?? "SKU", value: input.sku, width: material ? 44 : 72 },
  ];
  if (material) cells.push({ label: "Material", value: material, width: 56 });
  cells.push({ label: "Escala", value: "Sin escala", width: 0 });
  const fixed = cells.reduce((sum, cell) => sum + cell.width, 0);
  cells[cells.length - 1].width = symbolLeft - x0 - fixed;
  let x = x0;
  for (const [index, cell] of cells.entries()) {
    parts.push(field(x, nameBottom, cell.width, y1 - nameBottom, cell.label, cell.value, 3.2, false));
    if (index > 0) parts.push(`<path d="M${n(x)} ${nameBottom}V${y1}" stroke="${INK}" stroke-width="${THIN}"/>`);
    x += cell.width;
  }
  const scaleCell = cells[cells.length - 1];
  parts.push(
    `<text x="${n(x - scaleCell.width + 2.5)}" y="${n(y1 - 2.5)}" font-size="2.6" fill="${MUTED}">Acotaciones en mm</text>`,
  );
  parts.push(projectionSymbol(symbolLeft, headerBottom, x1 - symbolLeft, y1 - headerBottom));
  return `<g>${parts.join("")}</g>`;
}

/** A labelled cell: small grey label on top, the value below, wrapped and shrunk to fit. */
function field(
  x: number,
  y: number,
  cellWidth: number,
  cellHeight: number,
  label: string,
  value: string,
  size: number,
  bold: boolean,
): string {
  const inner = cellWidth - 5;
  let fontSize = size;
  let lines = wrap(value, inner, fontSize, 1, bold);
  if (!fits(value, inner, fontSize, bold)) {
    fontSize = size * 0.8;
    lines = wrap(value, inner, fontSize, 2, bold);
  }
  const lineHeight = fontSize * 1.15;
  const firstBaseline = lines.length > 1 ? y + 3.2 + fontSize * 0.95 : y + cellHeight / 2 + 1.2 + fontSize * 0.35;
  const texts = lines
    .map((line, i) => `<text x="${n(x + 2.5)}" y="${n(firstBaseline + i * lineHeight)}">${escapeXml(line)}</text>`)
    .join("");
  return (
    `<text x="${n(x + 2.5)}" y="${n(y + 3.2)}" font-size="2.2" fill="${MUTED}">${escapeXml(label)}</text>` +
    `<g font-size="${n(fontSize)}" fill="${INK}"${bold ? ` font-weight="700"` : ""}>${texts}</g>`
  );
}

/** ISO 5456-2 first-angle symbol: the truncated cone's side view, its end view to the right. */
function projectionSymbol(x: number, y: number, cellWidth: number, cellHeight: number): string {
  const cx = x + cellWidth / 2;
  const cy = y + cellHeight / 2 + 0.5;
  const big = 4.2;
  const small = big / 2;
  const length = 8.4;
  const gap = 3.6;
  const total = length + gap + 2 * big;
  const left = cx - total / 2;
  const right = left + length;
  const circle = right + gap + big;
  return (
    `<text x="${n(cx)}" y="${n(y + 3.2)}" font-size="2.2" text-anchor="middle" fill="${MUTED}">Proyección</text>` +
    `<g fill="none" stroke="${INK}" stroke-width="0.3">` +
    `<path d="M${n(left)} ${n(cy - small)}L${n(right)} ${n(cy - big)}V${n(cy + big)}L${n(left)} ${n(cy + small)}Z"/>` +
    `<circle cx="${n(circle)}" cy="${n(cy)}" r="${big}"/><circle cx="${n(circle)}" cy="${n(cy)}" r="${small}"/>` +
    `<path d="M${n(left - 1.5)} ${n(cy)}H${n(circle + big + 1.5)}M${n(circle)} ${n(cy - big - 1.5)}V${n(cy + big + 1.5)}" stroke-width="${THIN}" stroke-dasharray="3 0.8 0.5 0.8"/>` +
    `</g>` +
    `<text x="${n(cx)}" y="${n(y + cellHeight - 2.5)}" font-size="2.2" text-anchor="middle" fill="${MUTED}">Primer ángulo (ISO E)</text>`
  );
}

// --- Text ----------------------------------------------------------------------------------------

/** Rough width of a text in a sans-serif face (no font metrics here). */
function textWidth(text: string, size: number, bold = false): number {
  return text.length * size * (bold ? 0.6 : 0.54);
}

function fits(text: string, available: number, size: number, bold = false): boolean {
  return textWidth(text, size, bold) <= available;
}

/** Word-wraps into at most `maxLines` lines; the last one is cut with an ellipsis if needed. */
function wrap(text: string, available: number, size: number, maxLines: number, bold = false): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate, available, size, bold) || !current) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  const kept = lines.slice(0, maxLines).map((line) => cut(line, available, size, bold));
  if (lines.length > maxLines) kept[maxLines - 1] = ellipsize(cut(kept[maxLines - 1], available - size, size, bold));
  return kept;
}

function cut(line: string, available: number, size: number, bold: boolean): string {
  if (fits(line, available, size, bold)) return line;
  let shortened = line;
  while (shortened.length > 1 && !fits(`${shortened}…`, available, size, bold)) shortened = shortened.slice(0, -1);
  return `${shortened.trimEnd()}…`;
}

function ellipsize(line: string): string {
  return line.endsWith("…") ? line : `${line.replace(/[\s.,;:]+$/, "")}…`;
}

/** Text for XML content and attributes; drops characters XML 1.0 cannot carry (controls, lone surrogates). */
export function escapeXml(text: string): string {
  let allowed = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const valid =
      code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    if (valid) allowed += character;
  }
  return allowed
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function n(value: number): string {
  return String(Math.round(value * 100) / 100 + 0);
}

const DRAWING_ELEMENTS = new Set(["svg", "title", "desc", "g", "rect", "path", "circle", "text"]);
const DRAWING_ATTRIBUTE = /^(viewBox|width|height|role|font-family|font-size|font-weight|text-anchor|x|y|cx|cy|r|d|fill|stroke|stroke-width|stroke-dasharray|stroke-linecap|stroke-linejoin|transform|data-view)$/;
/** What the drawing's values are made of: numbers, path commands, colours, font names, transforms. */
const DRAWING_VALUE = /^[-\w .,#'()%]*$/;
/** HTML's own whitespace: JavaScript's \s also takes characters (no-break space, U+2028…) HTML does not. */
const ATTRIBUTE = /[\t\n\f\r ]+([^\t\n\f\r =/>]+)="([^"]*)"/g;

/**
 * One SVG element as drawingSvg writes it, checked tag by tag against the elements, attributes and
 * value characters it uses: nothing that runs, embeds HTML or loads anything (the product page
 * writes it into itself). Its text is escaped, so it holds no "<".
 */
export function isPlainDrawing(text: string): boolean {
  if (!text.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ') || !text.trimEnd().endsWith("</svg>")) return false;
  let roots = 0;
  for (const [, closing, name, attributes] of text.matchAll(/<(\/?)([^\t\n\f\r />]*)([^>]*)>/g)) {
    if (!DRAWING_ELEMENTS.has(name!)) return false;
    if (closing) {
      if (attributes!.trim() !== "") return false;
      continue;
    }
    if (name === "svg") roots += 1;
    // The root's namespace, exactly as written, is the one value with a ":" and "/".
    const rest = name === "svg" && roots === 1 ? attributes!.replace(' xmlns="http://www.w3.org/2000/svg"', "") : attributes!;
    for (const [, attribute, value] of rest.matchAll(ATTRIBUTE)) {
      if (!DRAWING_ATTRIBUTE.test(attribute!) || !DRAWING_VALUE.test(value!) || /url\(/i.test(value!)) return false;
    }
    // Nothing left over but the attributes and an optional "/": no unquoted or oddly spaced attribute.
    if (!/^[\t\n\f\r ]*\/?$/.test(rest.replace(ATTRIBUTE, ""))) return false;
  }
  return roots === 1;
}
