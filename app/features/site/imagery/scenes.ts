// The pictures of the public site (issue 12 §3): compositions of parts modelled with our own CAD
// models, one for the home hero, one per service and one per industry, and each industry's example
// part with its technical drawing. Pure data: `scripts/site-imagery.ts` renders it once at build time
// (docs/decisions/0026), the pages read the result through `images.server.ts`.
import type { PartFinish, PartSpec } from "~/features/catalogue/index.server";
import type { IndustrySlug, ServiceSlug } from "../content/types";

/** A surface the catalogue's finishes do not have (copper, natural UHMW, PEEK), in the renderer's terms. */
export interface SurfaceLook {
  color: string;
  /** 0 for plastic … 1 for bare metal. */
  metal: number;
  specular: number;
  shininess: number;
  /** The colour of the edges drawn over the part. */
  line: string;
}

export type SceneLook = PartFinish | SurfaceLook;

export const LOOKS = {
  cobre: { color: "#c27a4a", metal: 0.6, specular: 0.5, shininess: 50, line: "#43200c" },
  uhmw: { color: "#eef0ea", metal: 0, specular: 0.12, shininess: 12, line: "#6b7163" },
  peek: { color: "#c9b48f", metal: 0, specular: 0.2, shininess: 22, line: "#4d3f27" },
  resina: { color: "#9aa3ad", metal: 0, specular: 0.25, shininess: 30, line: "#353b42" },
  pla: { color: "#ea580c", metal: 0, specular: 0.18, shininess: 18, line: "#5a2406" },
} satisfies Record<string, SurfaceLook>;

/** One part in a composition. */
export interface SceneItem {
  part: PartSpec;
  look: SceneLook;
  /** Turns applied to the part in order, about the model's own axes through its origin (degrees). */
  rotate?: Array<["x" | "y" | "z", number]>;
  /**
   * Where the part stands, in millimetres, in the camera's terms: to the right in the picture, away
   * from the camera, and up. The part is first centred and set on the floor (z = 0).
   */
  at?: [right: number, back: number, up?: number];
}

export type SceneFormat = "hero" | "card";

export interface SiteScene {
  /** File name stem, e.g. "industria-energia". */
  id: string;
  format: SceneFormat;
  /** What the picture shows, for its alt text (natural Spanish, descriptive). */
  alt: string;
  items: SceneItem[];
  /** Where the camera looks from, Z up. */
  direction?: [number, number, number];
  /** Empty space around the parts, as a fraction of the picture. */
  margin?: number;
}

/** The sizes each format is rendered at (the first is the largest), with the same aspect ratio. */
export const SCENE_SIZES: Record<SceneFormat, Array<{ width: number; height: number }>> = {
  hero: [
    { width: 1600, height: 900 },
    { width: 800, height: 450 },
  ],
  card: [
    { width: 800, height: 600 },
    { width: 400, height: 300 },
  ],
};

/** A part shown on its own with its technical drawing: the "proyecto de ejemplo" of an industry. */
export interface ExamplePart {
  /** What the part is, for the drawing's title block and its alt text. */
  name: string;
  /** For the drawing's title block. */
  code: string;
  part: PartSpec;
  look: SceneLook;
  material: string;
  notes: string[];
}

// --- Parts -----------------------------------------------------------------------------------------

const BRIDA_2: PartSpec = { kind: "brida", outside: 152.4, thickness: 17.5, boltCircle: 120.7, holes: 4, hole: 19, raisedFace: { diameter: 92.1, height: 1.6 }, bore: 62, hub: { diameter: 78, height: 7 } };
const BRIDA_3_CIEGA: PartSpec = { kind: "brida", outside: 190.5, thickness: 23.9, boltCircle: 152.4, holes: 4, hole: 19, raisedFace: { diameter: 127, height: 1.6 } };
const BRIDA_1: PartSpec = { kind: "brida", outside: 108, thickness: 14.2, boltCircle: 79.4, holes: 4, hole: 15.9, raisedFace: { diameter: 50.8, height: 1.6 }, bore: 34, hub: { diameter: 49, height: 9 } };
const BUJE: PartSpec = { kind: "buje", inside: 25.4, outside: 31.75, length: 25.4, chamfer: 0.8 };
const BUJE_GRANDE: PartSpec = { kind: "buje", inside: 50.8, outside: 63.5, length: 50.8, chamfer: 1.2 };
const BUJE_PESTANA: PartSpec = { kind: "buje", inside: 20, outside: 26, length: 20, chamfer: 0.4, flange: { diameter: 32, thickness: 3 } };
const TORNILLO_M10: PartSpec = { kind: "tornillo", diameter: 10, length: 40, head: { diameter: 16, height: 10 }, socket: 8 };
const TORNILLO_M6: PartSpec = { kind: "tornillo", diameter: 6, length: 20, head: { diameter: 10, height: 6 }, socket: 5 };
const ESCUADRA: PartSpec = { kind: "escuadra", leg: 100, width: 50, thickness: 6.35, hole: 11 };
const ESCUADRA_CHICA: PartSpec = { kind: "escuadra", leg: 50, width: 30, thickness: 3, hole: 5.5 };
const SOPORTE_L: PartSpec = { kind: "soporte-l", length: 210, width: 120, height: 150, thickness: 9.5, slot: { width: 13, length: 40 }, hole: 14 };
const RUEDA: PartSpec = { kind: "rueda", outside: 100, width: 40, bore: 20, bearing: { outside: 47, width: 14 } };
const RUEDA_GRANDE: PartSpec = { kind: "rueda", outside: 150, width: 50, bore: 25, bearing: { outside: 52, width: 15 } };
const GABINETE: PartSpec = { kind: "gabinete", height: 400, width: 300, depth: 200, sheet: 1.5 };
const PLACA: PartSpec = { kind: "placa", length: 200, width: 150, thickness: 12.7, pitch: 25, gridHole: 6.6, cornerHole: 9, cornerInset: 10 };
const SOPORTE_SENSOR: PartSpec = { kind: "soporte-sensor", sensor: 18, adjust: 15, mountHole: 6.5, thickness: 5 };
const GUARDA: PartSpec = { kind: "panel", length: 300, width: 220, thickness: 6, hole: 6.5, inset: 15 };
const GUIA_UHMW: PartSpec = { kind: "solera", length: 300, width: 40, thickness: 12 };
const CELOSIA_CHICA: PartSpec = { kind: "celosia", length: 300, width: 200, sheet: 2, flange: 15, slot: { width: 10, length: 40 }, rows: 3, columns: 9, margin: 18 };
const ESTRELLA_CHICA: PartSpec = { kind: "estrella", outside: 160, thickness: 12, pockets: 6, pocket: 44, bore: 25, hub: { diameter: 50, height: 14 } };

// --- The example parts (one per industry) --------------------------------------------------------

export const EXAMPLE_PARTS: Record<IndustrySlug, ExamplePart> = {
  aeroespacial: {
    name: "Base del dispositivo de ensamble para panel de acceso",
    code: "EJ-AER-01",
    part: {
      kind: "dispositivo",
      length: 360,
      width: 240,
      thickness: 20,
      mountHole: 11,
      inset: 18,
      pad: { diameter: 20, height: 12, at: [[-120, -60], [120, -60], [-120, 60], [120, 60], [0, 0]] },
      pin: { diameter: 10, height: 30, at: [[-150, 0], [150, 0]] },
      blocks: [{ at: [0, -100], length: 140, width: 16, height: 32 }],
    },
    look: "aluminio",
    material: "Aluminio 6061-T6; localizadores de acero 4140 templado",
    notes: ["5 apoyos Ø 20 y 2 pernos localizadores Ø 10 h6", "Tope lateral de 140 × 16 × 32", "4 barrenos Ø 11 para fijar a la mesa"],
  },
  agricola: {
    name: "Maza de disco abridor de sembradora",
    code: "EJ-AGR-01",
    // The hub of a disc opener: the flange model, its hub and the pilot as the two bosses.
    part: { kind: "brida", outside: 140, thickness: 12, boltCircle: 112, holes: 4, hole: 13, raisedFace: { diameter: 72, height: 10 }, bore: 47, hub: { diameter: 72, height: 28 } },
    look: "acero",
    material: "Acero 4140 templado y revenido",
    notes: ["Alojamiento Ø 47 H7 para rodamiento 6204", "4 barrenos Ø 13 en círculo de Ø 112", "Geometría reconstruida por escaneo 3D"],
  },
  alimentos: {
    name: "Estrella de cambio de formato para botella de 66 mm",
    code: "EJ-ALI-01",
    part: { kind: "estrella", outside: 300, thickness: 20, pockets: 8, pocket: 68, bore: 40, hub: { diameter: 90, height: 25 }, bolts: { count: 4, circle: 130, hole: 8.5 } },
    look: LOOKS.uhmw,
    material: "UHMW-PE natural, grado alimenticio",
    notes: ["8 cavidades para botella de Ø 66", "Barreno Ø 40 H7 en cubo de Ø 90", "4 barrenos Ø 8.5 para localizador rápido"],
  },
  automotriz: {
    name: "Base del dispositivo de control para soporte estampado",
    code: "EJ-AUT-01",
    part: {
      kind: "dispositivo",
      length: 300,
      width: 200,
      thickness: 16,
      mountHole: 9,
      inset: 14,
      pad: { diameter: 16, height: 22, at: [[-90, -50], [90, -50], [0, 60]] },
      pin: { diameter: 8, height: 42, at: [[-110, 40], [110, 40]] },
      blocks: [
        { at: [-60, -75], length: 40, width: 20, height: 50 },
        { at: [60, -75], length: 40, width: 20, height: 50 },
      ],
    },
    look: "aluminio",
    material: "Aluminio 6061-T6; pernos pasa/no pasa de acero D2",
    notes: ["3 apoyos Ø 16 y 2 pernos Ø 8 pasa/no pasa", "2 bases de 40 × 20 × 50 para pinzas de sujeción", "4 barrenos Ø 9 para fijar a la mesa"],
  },
  construccion: {
    name: "Panel de celosía de fachada",
    code: "EJ-CON-01",
    part: { kind: "celosia", length: 600, width: 400, sheet: 3, flange: 25, slot: { width: 14, length: 80 }, rows: 4, columns: 14, margin: 30 },
    look: "pintura-negra",
    material: "Aluminio 5052-H32 de 3 mm, pintura electrostática",
    notes: ["Doblez perimetral de 25", "56 ranuras de 14 de ancho, largo según el patrón del panel", "Marcado por nivel y posición"],
  },
  electronica: {
    name: "Gabinete IP65 para controlador de campo",
    code: "EJ-ELE-01",
    part: { kind: "gabinete", height: 300, width: 250, depth: 150, sheet: 2 },
    look: "galvanizado",
    material: "Aluminio 5052 de 2 mm, pintura electrostática",
    notes: ["Medidas exteriores 300 × 250 × 150", "Puerta con junta de silicón para IP65"],
  },
  energia: {
    name: "Barra de cobre con desviación para tablero",
    code: "EJ-ENE-01",
    part: { kind: "barra", length: 320, width: 40, thickness: 6, offset: 40, hole: 13, holesPerEnd: 2, pitch: 25 },
    look: LOOKS.cobre,
    material: "Cobre C110, estañado",
    notes: ["Solera de 6 × 40", "Desviación de 40 a 45°", "2 barrenos Ø 13 en cada extremo a paso de 25"],
  },
  industrial: {
    name: "Nido de posicionamiento para prensado de bujes",
    code: "EJ-IND-01",
    // The positioning nest of the press: a flanged sleeve bolted to the table.
    part: { kind: "brida", outside: 100, thickness: 14, boltCircle: 80, holes: 4, hole: 6.6, raisedFace: { diameter: 56, height: 2 }, bore: 32.2, hub: { diameter: 56, height: 30 } },
    look: "acero",
    material: "Acero D2 templado",
    notes: ["Alojamiento Ø 32.2 H7 para el buje", "4 barrenos Ø 6.6 en círculo de Ø 80", "Dureza 58–60 HRC"],
  },
  medica: {
    name: "Mango ergonómico para instrumento quirúrgico",
    code: "EJ-MED-01",
    part: { kind: "mango", length: 110, butt: 14, grip: 22, waist: 17, neck: 12, bore: { diameter: 6, depth: 20 } },
    look: LOOKS.peek,
    material: "PEEK natural; inserto de inoxidable 316L pasivado",
    notes: ["Alojamiento Ø 6 × 20 para el inserto, ±0.02", "Superficie continua, sin aristas, fácil de limpiar"],
  },
  minera: {
    name: "Segmento de revestimiento para chute de transferencia",
    code: "EJ-MIN-01",
    part: { kind: "panel", length: 400, width: 300, thickness: 20, hole: 22, inset: 40 },
    look: "acero",
    material: "Placa antidesgaste de 500 HB",
    notes: ["8 barrenos Ø 22 para tornillo M20", "Segmento marcado por posición en el chute"],
  },
};

const example = (slug: IndustrySlug) => EXAMPLE_PARTS[slug].part;

// --- The compositions ------------------------------------------------------------------------------

export const HERO_SCENE: SiteScene = {
  id: "inicio",
  format: "hero",
  alt: "Piezas modeladas en CAD por Forja: gabinete de lámina negro, soporte en L galvanizado, bridas de acero e inoxidable, rueda de poliuretano naranja, bujes de bronce y tornillería",
  direction: [1, -1.5, 0.75],
  margin: 0.05,
  items: [
    // Back row.
    { part: { kind: "gabinete", height: 320, width: 240, depth: 160, sheet: 1.5 }, look: "pintura-negra", at: [-360, 250] },
    { part: BRIDA_3_CIEGA, look: "inoxidable", rotate: [["x", 90]], at: [-70, 300] },
    { part: CELOSIA_CHICA, look: "aluminio", rotate: [["x", -90]], at: [190, 330] },
    // Front row.
    { part: SOPORTE_L, look: "galvanizado", rotate: [["z", 180]], at: [-300, -30] },
    { part: RUEDA_GRANDE, look: "poliuretano", rotate: [["x", 90]], at: [-40, 90] },
    { part: BRIDA_2, look: "acero", at: [200, 80] },
    { part: ESCUADRA, look: "pintura-negra", at: [390, 0] },
    { part: BUJE_GRANDE, look: "bronce", at: [-90, -130] },
    { part: BUJE, look: "bronce", at: [-10, -170] },
    { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90]], at: [130, -150] },
    { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90], ["z", 25]], at: [200, -130] },
  ],
};

export const SERVICE_SCENES: Record<ServiceSlug, SiteScene> = {
  "diseno-industrial": {
    id: "servicio-diseno-industrial",
    format: "card",
    alt: "Mango ergonómico, gabinete compacto de lámina y soporte de sensor en plástico negro",
    items: [
      { part: { kind: "gabinete", height: 180, width: 150, depth: 100, sheet: 1.5 }, look: "pintura-negra", at: [-110, 60] },
      { part: example("medica"), look: LOOKS.peek, rotate: [["y", 90]], at: [40, -90] },
      { part: SOPORTE_SENSOR, look: "petg-negro", at: [110, 50] },
    ],
  },
  "ingenieria-cad": {
    id: "servicio-ingenieria-cad",
    format: "card",
    alt: "Dispositivo de sujeción de aluminio con apoyos y pernos localizadores, junto a una escuadra y tornillos",
    items: [
      { part: example("aeroespacial"), look: "aluminio", at: [-40, 60] },
      { part: ESCUADRA, look: "pintura-negra", rotate: [["z", 90]], at: [230, 20] },
      { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90]], at: [120, -160] },
    ],
  },
  "prototipado-rapido": {
    id: "servicio-prototipado-rapido",
    format: "card",
    alt: "Prototipos impresos en 3D: soporte de sensor negro, estrella naranja y mango gris de resina",
    items: [
      { part: ESTRELLA_CHICA, look: LOOKS.pla, at: [-60, 60] },
      { part: SOPORTE_SENSOR, look: "petg-negro", at: [110, 40] },
      { part: example("medica"), look: LOOKS.resina, rotate: [["y", 90], ["z", 15]], at: [20, -90] },
    ],
  },
  "maquinado-cnc": {
    id: "servicio-maquinado-cnc",
    format: "card",
    alt: "Piezas maquinadas: brida de acero, placa de aluminio con barrenos, buje de bronce con pestaña y tornillos de inoxidable",
    items: [
      { part: PLACA, look: "aluminio", at: [-150, 80] },
      { part: BRIDA_2, look: "acero", at: [100, 60] },
      { part: BUJE_PESTANA, look: "bronce", at: [-40, -90] },
      { part: TORNILLO_M6, look: "inoxidable", rotate: [["y", 90]], at: [50, -110] },
      { part: TORNILLO_M6, look: "inoxidable", rotate: [["y", 90], ["z", 30]], at: [100, -80] },
    ],
  },
  lamina: {
    id: "servicio-lamina",
    format: "card",
    alt: "Piezas de lámina: gabinete negro, soporte en L galvanizado, escuadra y panel de celosía de aluminio",
    items: [
      { part: GABINETE, look: "pintura-negra", at: [-230, 120] },
      { part: SOPORTE_L, look: "galvanizado", rotate: [["z", 180]], at: [80, 80] },
      { part: CELOSIA_CHICA, look: "aluminio", rotate: [["x", -90]], at: [290, 200] },
      { part: ESCUADRA, look: "pintura-negra", at: [250, -120] },
    ],
  },
  "moldes-inyeccion": {
    id: "servicio-moldes-inyeccion",
    format: "card",
    alt: "Piezas de plástico: rueda de poliuretano naranja, estrella blanca y soporte de sensor negro",
    items: [
      { part: RUEDA, look: "poliuretano", rotate: [["x", 90]], at: [-110, 40] },
      { part: ESTRELLA_CHICA, look: LOOKS.uhmw, at: [60, 60] },
      { part: SOPORTE_SENSOR, look: "petg-negro", at: [150, -80] },
    ],
  },
  "ingenieria-inversa": {
    id: "servicio-ingenieria-inversa",
    format: "card",
    alt: "Refacciones reconstruidas: maza de acero, rueda de poliuretano y buje de bronce",
    items: [
      { part: example("agricola"), look: "acero", at: [-70, 40] },
      { part: RUEDA, look: "poliuretano", rotate: [["x", 90]], at: [110, 60] },
      { part: BUJE_GRANDE, look: "bronce", at: [60, -90] },
    ],
  },
  "ensamble-contrato": {
    id: "servicio-ensamble-contrato",
    format: "card",
    alt: "Componentes listos para ensamble: gabinete, guarda de policarbonato, escuadras y tornillería",
    items: [
      { part: GABINETE, look: "pintura-negra", at: [-170, 120] },
      { part: GUARDA, look: "policarbonato", rotate: [["x", -90]], at: [200, 260] },
      { part: ESCUADRA, look: "galvanizado", at: [110, -40] },
      { part: ESCUADRA, look: "galvanizado", rotate: [["z", 90]], at: [240, -20] },
      { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90]], at: [130, -170] },
      { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90], ["z", 25]], at: [190, -190] },
    ],
  },
};

export const INDUSTRY_SCENES: Record<IndustrySlug, SiteScene> = {
  aeroespacial: {
    id: "industria-aeroespacial",
    format: "card",
    alt: "Dispositivo de ensamble de aluminio con apoyos y pernos localizadores, bujes con pestaña y tornillos de inoxidable",
    items: [
      { part: example("aeroespacial"), look: "aluminio", at: [0, 60] },
      { part: BUJE_PESTANA, look: "inoxidable", at: [-90, -190] },
      { part: TORNILLO_M6, look: "inoxidable", rotate: [["y", 90]], at: [30, -200] },
      { part: TORNILLO_M6, look: "inoxidable", rotate: [["y", 90], ["z", 20]], at: [80, -180] },
    ],
  },
  agricola: {
    id: "industria-agricola",
    format: "card",
    alt: "Maza de acero para disco de sembradora, buje de bronce y escuadra galvanizada",
    items: [
      { part: example("agricola"), look: "acero", at: [-60, 40] },
      { part: BUJE_GRANDE, look: "bronce", at: [110, 90] },
      { part: ESCUADRA, look: "galvanizado", at: [140, -90] },
    ],
  },
  alimentos: {
    id: "industria-alimentos",
    format: "card",
    alt: "Estrella blanca de UHMW para cambio de formato en línea de envasado, con guía y buje de inoxidable",
    items: [
      { part: example("alimentos"), look: LOOKS.uhmw, at: [-90, 40] },
      { part: GUIA_UHMW, look: LOOKS.uhmw, rotate: [["z", 90]], at: [190, 90] },
      { part: BUJE_GRANDE, look: "inoxidable", at: [140, -150] },
    ],
  },
  automotriz: {
    id: "industria-automotriz",
    format: "card",
    alt: "Dispositivo de control de aluminio con pernos pasa/no pasa, soporte estampado negro y tornillos",
    items: [
      { part: example("automotriz"), look: "aluminio", at: [-60, 60] },
      { part: SOPORTE_L, look: "pintura-negra", rotate: [["z", 180]], at: [260, 40] },
      { part: TORNILLO_M10, look: "inoxidable", rotate: [["y", 90]], at: [60, -140] },
    ],
  },
  construccion: {
    id: "industria-construccion",
    format: "card",
    alt: "Panel de celosía de aluminio con ranuras de largo variable, escuadra y soporte galvanizados",
    items: [
      { part: example("construccion"), look: "pintura-negra", rotate: [["x", -90]], at: [-80, 120] },
      { part: SOPORTE_L, look: "galvanizado", rotate: [["z", 180]], at: [340, 60] },
      { part: ESCUADRA, look: "galvanizado", at: [270, -130] },
    ],
  },
  electronica: {
    id: "industria-electronica",
    format: "card",
    alt: "Gabinete de aluminio para controlador de campo, guarda de policarbonato y soporte de sensor",
    items: [
      { part: example("electronica"), look: "galvanizado", at: [-80, 60] },
      { part: GUARDA, look: "policarbonato", rotate: [["x", -90]], at: [220, 230] },
      { part: SOPORTE_SENSOR, look: "petg-negro", at: [150, -130] },
    ],
  },
  energia: {
    id: "industria-energia",
    format: "card",
    alt: "Barras de cobre con desviación y barrenos para tablero de distribución, junto a bridas de acero",
    items: [
      { part: example("energia"), look: LOOKS.cobre, at: [-60, 80] },
      { part: example("energia"), look: LOOKS.cobre, at: [-60, 10] },
      { part: example("energia"), look: LOOKS.cobre, at: [-60, -60] },
      { part: BRIDA_3_CIEGA, look: "inoxidable", rotate: [["x", 90]], at: [230, 110] },
      { part: BRIDA_1, look: "acero", at: [200, -100] },
    ],
  },
  industrial: {
    id: "industria-industrial",
    format: "card",
    alt: "Nido de posicionamiento de acero para prensado de bujes, bujes de bronce, rueda de poliuretano y soporte",
    items: [
      { part: example("industrial"), look: "acero", at: [-70, 40] },
      { part: BUJE, look: "bronce", at: [30, -60] },
      { part: BUJE, look: "bronce", at: [80, -30] },
      { part: RUEDA, look: "poliuretano", rotate: [["x", 90]], at: [-150, -70] },
      { part: SOPORTE_L, look: "galvanizado", rotate: [["z", 180]], at: [150, 120] },
    ],
  },
  medica: {
    id: "industria-medica",
    format: "card",
    alt: "Mango ergonómico de PEEK para instrumento quirúrgico, inserto y soporte de acero inoxidable",
    items: [
      { part: example("medica"), look: LOOKS.peek, rotate: [["y", 90]], at: [-10, -30] },
      { part: { kind: "buje", inside: 3, outside: 6, length: 20, chamfer: 0.3 }, look: "inoxidable", rotate: [["y", 90]], at: [60, -80] },
      { part: ESCUADRA_CHICA, look: "inoxidable", at: [-50, 70] },
      { part: ESCUADRA_CHICA, look: "inoxidable", rotate: [["z", 90]], at: [50, 70] },
    ],
  },
  minera: {
    id: "industria-minera",
    format: "card",
    alt: "Revestimiento de placa antidesgaste con barrenos, buje de bronce y rueda de poliuretano",
    items: [
      { part: example("minera"), look: "acero", at: [-60, 60] },
      { part: BUJE_GRANDE, look: "bronce", at: [330, 130] },
      { part: RUEDA_GRANDE, look: "poliuretano", rotate: [["x", 90]], at: [270, -110] },
    ],
  },
};

/** Every composition, in a stable order. */
export const SITE_SCENES: SiteScene[] = [HERO_SCENE, ...Object.values(SERVICE_SCENES), ...Object.values(INDUSTRY_SCENES)];

/** The file name stem of an industry example's drawing. */
export const drawingId = (slug: IndustrySlug) => `dibujo-${slug}`;
