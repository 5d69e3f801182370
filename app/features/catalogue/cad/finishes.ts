// The finishes a part is rendered in (the model job's image, the 3D viewer), shared with the staff form.

/** What the rendered image shows the part in, with the name staff choose it by. */
export const PART_FINISH_NAMES = {
  acero: "Acero",
  galvanizado: "Acero galvanizado",
  inoxidable: "Acero inoxidable",
  aluminio: "Aluminio",
  bronce: "Bronce",
  "pintura-negra": "Pintura negra",
  poliuretano: "Poliuretano",
  "petg-negro": "Plástico negro",
  policarbonato: "Policarbonato transparente",
} as const;

export type PartFinish = keyof typeof PART_FINISH_NAMES;
export const PART_FINISHES = Object.keys(PART_FINISH_NAMES) as PartFinish[];
