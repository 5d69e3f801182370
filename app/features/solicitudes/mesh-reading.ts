// OBJ and 3MF for the /cotiza worker (cad-worker.ts): read by mesh-formats.ts, measured by
// mesh-figures.ts (the same functions as the server's geometry thread) and handed back with the
// triangles as the 3D preview's mesh. No CAD kernel is involved. Pure, so it is tested on its own.
import type { CadFigures, CadUnit } from "./cad-units";
import { meshFigures } from "./mesh-figures";
import { MeshFormatError, readMeshFile, type MeshFormat } from "./mesh-formats";

/** A mesh file read for the estimate: figures in mm, the declared unit, and the triangles to draw (no indices). */
export interface MeshReading {
  figures: CadFigures;
  unit: CadUnit | null;
  /** The triangle soup itself (9 floats per triangle, mm): every three vertices are a triangle. */
  mesh: { positions: Float32Array };
}

/**
 * Reads and measures an OBJ or 3MF. Null when the file cannot be read (MeshFormatError) or encloses no
 * volume, the rule STEP/IGES follow in the browser and every format on the server. An open mesh with a
 * volume keeps its figures, marked not closed, as STL does (docs/decisions/0023, addendum).
 */
export async function readMeshForEstimate(format: MeshFormat, bytes: Uint8Array): Promise<MeshReading | null> {
  let read;
  try {
    read = await readMeshFile(format, bytes);
  } catch (error) {
    if (error instanceof MeshFormatError) return null;
    throw error;
  }
  const figures = meshFigures(read.triangles);
  if (!(figures.volumeMm3 > 0)) return null;
  return { figures, unit: read.unit, mesh: { positions: read.triangles } };
}
