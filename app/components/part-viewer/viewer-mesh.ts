// The mesh the 3D viewer draws, and how it is made from an STL file. Pure: no three.js here, so a
// page can prepare a mesh without loading the viewer's scene (which is its own chunk).
import { parseStl } from "~/lib/stl";

/**
 * A triangle mesh in millimetres, Z up. `indices` (three per triangle) may be left out: then every
 * three vertices are a triangle, as an STL file stores them. A kernel's indexed mesh (positions,
 * optional normals, indices) has this shape too.
 */
export interface ViewerMesh {
  positions: Float32Array;
  indices?: Uint32Array;
  normals?: Float32Array;
}

/** Reads a binary or ASCII STL into a mesh. Throws StlParseError (Spanish message) when it is not a usable STL. */
export function meshFromStl(bytes: ArrayBuffer | ArrayBufferView): ViewerMesh {
  return { positions: parseStl(bytes).triangles };
}

export interface MeshBounds {
  min: [number, number, number];
  max: [number, number, number];
  center: [number, number, number];
  /** Half the box's diagonal: a sphere of this radius about `center` holds the whole part. */
  radius: number;
}

/** The axis-aligned box of the vertices a mesh uses. A mesh without vertices has a unit box at the origin. */
export function meshBounds(mesh: ViewerMesh): MeshBounds {
  const p = mesh.positions;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const take = (v: number) => {
    for (let axis = 0; axis < 3; axis++) {
      const value = p[3 * v + axis];
      if (value < min[axis]) min[axis] = value;
      if (value > max[axis]) max[axis] = value;
    }
  };
  // Only the vertices the triangles use: a kernel's buffer may hold others.
  if (mesh.indices) for (const v of mesh.indices) take(v);
  else for (let v = 0; v < Math.floor(p.length / 3); v++) take(v);
  if (min[0] > max[0]) return { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5], center: [0, 0, 0], radius: Math.sqrt(3) / 2 };
  const center: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  // A flat or degenerate part still needs a camera distance above zero.
  return { min, max, center, radius: radius > 0 ? radius : 0.5 };
}
