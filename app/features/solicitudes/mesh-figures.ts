// Figures of a triangle mesh for the estimate: volume, surface area and bounding box, in mm. Pure (no
// Node or DOM APIs): the /cotiza CAD worker in the browser and the server's geometry worker both call
// it, so the customer and staff see the same numbers. Volume, box and closedness come from the STL
// code (one implementation); this adds the area and the conversion from indexed meshes.
import type { CadFigures } from "./cad-units";
import { meshMetrics } from "./stl-geometry";

/** An indexed mesh as a CAD kernel returns it (occt-import-js: positions xyz…, triangle indices). */
export interface IndexedMesh {
  attributes: { position: { array: ArrayLike<number> } };
  index: { array: ArrayLike<number> };
}

/** All triangles of the meshes as one soup (9 floats per triangle), same units as the positions. */
export function triangleSoup(meshes: readonly IndexedMesh[]): Float32Array {
  let count = 0;
  for (const mesh of meshes) count += Math.floor(mesh.index.array.length / 3);
  const soup = new Float32Array(count * 9);
  let k = 0;
  for (const mesh of meshes) {
    const position = mesh.attributes.position.array;
    const index = mesh.index.array;
    for (let i = 0; i + 2 < index.length; i += 3) {
      for (let corner = 0; corner < 3; corner++) {
        const v = 3 * index[i + corner];
        soup[k++] = position[v];
        soup[k++] = position[v + 1];
        soup[k++] = position[v + 2];
      }
    }
  }
  return soup;
}

/** Sum of the triangles' areas (9 floats per triangle), mm². */
export function surfaceArea(t: Float32Array): number {
  let twice = 0;
  for (let o = 0; o + 8 < t.length; o += 9) {
    const ux = t[o + 3] - t[o], uy = t[o + 4] - t[o + 1], uz = t[o + 5] - t[o + 2];
    const vx = t[o + 6] - t[o], vy = t[o + 7] - t[o + 1], vz = t[o + 8] - t[o + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    twice += Math.sqrt(cx * cx + cy * cy + cz * cz);
  }
  return twice / 2;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Volume (mm³), area (mm²), bounding box (mm), triangle count and closedness of a triangle soup, rounded to 0.001. */
export function meshFigures(triangles: Float32Array): CadFigures {
  const metrics = meshMetrics(triangles);
  return {
    volumeMm3: round3(metrics.volumeMm3),
    areaMm2: round3(surfaceArea(triangles)),
    bbox: { x: round3(metrics.bbox.x), y: round3(metrics.bbox.y), z: round3(metrics.bbox.z) },
    triangles: metrics.triangles,
    closed: metrics.closed,
  };
}
