// The demo catalogue's parts as parametric models (issue 12 §1), keyed by SKU, from the dimensions
// each product's description states (demo-products.server.ts). Where the description leaves a
// dimension open (a hub's height, where a slot sits), the value is the usual one for such a part.
import type { PartModel } from "./models";

export const DEMO_MODELS: Record<string, PartModel> = {
  "FOR-ESC-100": {
    spec: { kind: "escuadra", leg: 100, width: 50, thickness: 6.35, hole: 11 },
    finish: "pintura-negra",
    material: "Acero A36, pintura electrostática negra",
    notes: ["Placa de 6.35 mm (1/4 in)", "4 barrenos Ø 11 (2 por ala)", "Doblez a 90° ±0.5°"],
  },
  "FOR-SOP-210": {
    spec: { kind: "soporte-l", length: 210, width: 120, height: 150, thickness: 9.5, slot: { width: 13, length: 40 }, hole: 14 },
    finish: "galvanizado",
    material: "Acero A36 galvanizado (ASTM A123)",
    notes: ["Placa de 9.5 mm (3/8 in)", "4 ranuras de 13 × 40 en la base", "4 barrenos Ø 14 y paso central Ø 40 en la cara"],
  },
  "FOR-BRD-150": {
    spec: { kind: "brida", outside: 152.4, thickness: 17.5, boltCircle: 120.7, holes: 4, hole: 19, raisedFace: { diameter: 92.1, height: 1.6 }, bore: 62, hub: { diameter: 78, height: 7 } },
    finish: "acero",
    material: "Acero ASTM A105",
    notes: ["ASME B16.5, 2 in clase 150, slip-on", "4 barrenos Ø 19 en círculo de Ø 120.7", "Cara realzada Ø 92.1 × 1.6"],
  },
  "FOR-BRD-304": {
    spec: { kind: "brida", outside: 190.5, thickness: 23.9, boltCircle: 152.4, holes: 4, hole: 19, raisedFace: { diameter: 127, height: 1.6 } },
    finish: "inoxidable",
    material: "Acero inoxidable AISI 304 (ASTM A182 F304)",
    notes: ["ASME B16.5, 3 in clase 150, ciega", "4 barrenos Ø 19 en círculo de Ø 152.4", "Cara realzada Ø 127 × 1.6"],
  },
  "FOR-BUJ-660": {
    spec: { kind: "buje", inside: 25.4, outside: 31.75, length: 25.4, chamfer: 0.8 },
    finish: "bronce",
    material: "Bronce SAE 660 (CDA 932)",
    notes: ["Se muestra una pieza del juego de 4", "Chaflán 0.8 × 45° en ambos extremos"],
  },
  "FOR-BUJ-841": {
    spec: { kind: "buje", inside: 20, outside: 26, length: 20, chamfer: 0.4, flange: { diameter: 32, thickness: 3 } },
    finish: "bronce",
    material: "Bronce sinterizado SAE 841",
    notes: ["Interior Ø 20 F7, exterior Ø 26 s7", "Pestaña Ø 32 × 3"],
  },
  "FOR-GAB-432": {
    spec: { kind: "gabinete", height: 400, width: 300, depth: 200, sheet: 1.5 },
    finish: "pintura-negra",
    material: "Lámina rolada en frío cal. 16 (1.5 mm)",
    notes: ["Medidas exteriores 400 × 300 × 200", "Puerta frontal con manija"],
  },
  "FOR-PLA-061": {
    spec: { kind: "placa", length: 300, width: 200, thickness: 6.35, pitch: 25, gridHole: 5, cornerHole: 6.6, cornerInset: 10 },
    finish: "aluminio",
    material: "Aluminio 6061-T6",
    notes: ["Retícula de 77 barrenos M6 a cada 25", "4 barrenos Ø 6.6 de fijación", "Planitud 0.1"],
  },
  "FOR-TOR-M06": {
    spec: { kind: "tornillo", diameter: 6, length: 20, head: { diameter: 10, height: 6 }, socket: 5 },
    finish: "inoxidable",
    material: "Acero inoxidable A2-70",
    notes: ["Se muestra un tornillo DIN 912 M6 × 20 del kit", "Hexágono interior de 5"],
  },
  "FOR-PUR-100": {
    spec: { kind: "rueda", outside: 100, width: 40, bore: 20, bearing: { outside: 47, width: 14 } },
    finish: "poliuretano",
    material: "Poliuretano 85 Shore A",
    notes: ["Alojamientos para 2 rodamientos 6204-2RS (Ø 47)", "Para eje de 20"],
  },
  "FOR-PUR-T06": {
    spec: { kind: "solera", length: 1000, width: 100, thickness: 6 },
    finish: "poliuretano",
    material: "Poliuretano 90 Shore A",
    notes: ["Se muestra un tramo de 1 m", "Sección 6 × 100"],
  },
  "FOR-IMP-018": {
    spec: { kind: "soporte-sensor", sensor: 18, adjust: 15, mountHole: 6.5, thickness: 5 },
    finish: "petg-negro",
    material: "PETG negro, impresión FDM",
    notes: ["Ranura para sensor M18 con ajuste de ±15", "2 barrenos Ø 6.5 para tornillo M6"],
  },
  "FOR-GUA-640": {
    spec: { kind: "panel", length: 500, width: 400, thickness: 6, hole: 6.5, inset: 15 },
    finish: "policarbonato",
    material: "Policarbonato transparente de 6 mm",
    notes: ["8 barrenos Ø 6.5 a 15 del borde", "Cantos fresados y pulidos"],
  },
};
