// The tessellation of a STEP or IGES file as one mesh for the 3D preview: the kernel's meshes (one per
// solid or shell) merged into a single position buffer and index buffer. Pure, so it is tested on its own.
import type { ViewerMesh } from "~/components/part-viewer/viewer-mesh";
import type { IndexedMesh } from "./mesh-figures";

/** All meshes in one: positions concatenated (mm), each mesh's indices shifted past the vertices before it. */
export function mergeMeshes(meshes: readonly IndexedMesh[]): Required<Pick<ViewerMesh, "positions" | "indices">> {
  let floats = 0;
  let indexCount = 0;
  for (const mesh of meshes) {
    floats += mesh.attributes.position.array.length - (mesh.attributes.position.array.length % 3);
    indexCount += mesh.index.array.length - (mesh.index.array.length % 3);
  }
  const positions = new Float32Array(floats);
  const indices = new Uint32Array(indexCount);
  let p = 0;
  let k = 0;
  for (const mesh of meshes) {
    const source = mesh.attributes.position.array;
    const vertices = Math.floor(source.length / 3);
    const base = p / 3;
    for (let i = 0; i < vertices * 3; i++) positions[p++] = source[i];
    const index = mesh.index.array;
    const used = index.length - (index.length % 3);
    for (let i = 0; i < used; i++) {
      // An index past this mesh's vertices would point into the next one's: the kernel never writes one, but stay safe.
      if (index[i] >= vertices) throw new RangeError("Índice de vértice fuera de la malla.");
      indices[k++] = base + index[i];
    }
  }
  return { positions, indices };
}
