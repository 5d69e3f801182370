import type { SolicitudEstimate } from "~/db/schema/solicitudes";
import { estimatePrice } from "./price-rules";
import { meshMetrics, parseStl } from "./stl-geometry";

// The instant estimate of an STL: the browser shows it while the person fills /cotiza and the server
// recomputes it from the stored file. Both call these functions, so the figures match to the centavo.

/** What is kept of the geometry: rounded to the micrometre (mm³ to 3 decimals) so JSON stays stable. */
export interface StlMeasurement {
  volumeMm3: number;
  bbox: { x: number; y: number; z: number };
  triangles: number;
  closed: boolean;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Parses and measures an STL. Throws StlParseError (Spanish message) when the file is not a usable STL. */
export function measureStl(bytes: ArrayBuffer | ArrayBufferView): StlMeasurement {
  return measureTriangles(parseStl(bytes).triangles);
}

/** Measures an STL already parsed (9 floats per triangle, mm): the browser keeps the triangles for the 3D preview. */
export function measureTriangles(triangles: Float32Array): StlMeasurement {
  const metrics = meshMetrics(triangles);
  return {
    volumeMm3: round3(metrics.volumeMm3),
    bbox: { x: round3(metrics.bbox.x), y: round3(metrics.bbox.y), z: round3(metrics.bbox.z) },
    triangles: metrics.triangles,
    closed: metrics.closed,
  };
}

/** The price part of an estimate, from the rounded measurement (so a stored estimate can be re-priced identically). */
export function priceMeasurement(measurement: StlMeasurement, service: string | undefined | null, quantity: number | undefined | null): SolicitudEstimate["price"] {
  if (!service) return undefined;
  const range = estimatePrice(service, measurement, quantity);
  return range ? { service, ...range } : undefined;
}

export interface BuildEstimateInput {
  fileId: string;
  fileName: string;
  bytes: ArrayBuffer | ArrayBufferView;
  service?: string | null;
  quantity?: number | null;
}

/** Full estimate of one STL file. Throws StlParseError for a malformed file. */
export function buildEstimate({ fileId, fileName, bytes, service, quantity }: BuildEstimateInput): SolicitudEstimate {
  const measurement = measureStl(bytes);
  const price = priceMeasurement(measurement, service, quantity);
  return { fileId, fileName, ...measurement, ...(price ? { price } : {}) };
}
