// Shapes shared by the staff detail query (detail.server.ts) and its components (browser-safe).

/** What a quote request says about the part: the "Proyecto" section of the staff detail. */
export interface SolicitudProjectFields {
  industry: string | null;
  service: string | null;
  description: string | null;
  quantity: number | null;
  extraQuantities: number[];
  /** YYYY-MM-DD (a calendar date, no time zone). */
  requiredBy: string | null;
  material: string | null;
  finish: string | null;
  tolerance: string | null;
  threads: boolean | null;
  certificates: string[];
}
