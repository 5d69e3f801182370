// From a solid to everything the catalogue shows of it (docs/decisions/0025): the STEP and STL to
// download, the technical drawing, the rendered image and its figures. Runs wherever the kernel is
// loaded (the model job's worker thread, the build script); the kernel is passed in.
import type * as Replicad from "replicad";
import { shapeSize } from "~/lib/cad-kernel";
import { drawingSvg } from "./drawing";
import type { PartMeta } from "./protocol";
import { projectViews } from "./projections";
import { renderPart } from "./render-part";
import type { PartEdges, PartMesh } from "./types";

type R = typeof Replicad;

/** The rendered image's size: 4:3, as the catalogue's cards; the page and the cards take WebP variants of it. */
export const PART_RENDER = { width: 1600, height: 1200 } as const;

export interface PartArtifacts {
  step: Uint8Array;
  stl: Uint8Array;
  drawing: string;
  image: { data: Uint8ClampedArray; width: number; height: number };
  volumeMm3: number;
  areaMm2: number;
  size: { x: number; y: number; z: number };
}

/** The tessellation follows the part's size: fine enough for a smooth bore, coarse enough for a 1 m strip. */
function meshTolerance(size: { x: number; y: number; z: number }): { tolerance: number; angularTolerance: number } {
  const diagonal = Math.hypot(size.x, size.y, size.z);
  return { tolerance: Math.max(0.01, diagonal / 2500), angularTolerance: 0.15 };
}

export function partMesh(shape: Replicad.Shape3D, tolerance: { tolerance: number; angularTolerance: number }): PartMesh {
  const mesh = shape.mesh(tolerance);
  return { positions: Float32Array.from(mesh.vertices), normals: Float32Array.from(mesh.normals), indices: Uint32Array.from(mesh.triangles) };
}

export function partEdges(shape: Replicad.Shape3D, tolerance: { tolerance: number; angularTolerance: number }): PartEdges {
  return { segments: Float32Array.from(shape.meshEdges(tolerance).lines) };
}

async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

export async function partArtifacts(r: R, shape: Replicad.Shape3D, meta: PartMeta): Promise<PartArtifacts> {
  const size = shapeSize(shape);
  const tolerance = meshTolerance(size);
  const mesh = partMesh(shape, tolerance);
  const edges = partEdges(shape, tolerance);
  const step = await blobBytes(shape.blobSTEP());
  const stl = await blobBytes(shape.blobSTL({ binary: true, ...tolerance }));
  const drawing = drawingSvg({ title: meta.title, sku: meta.sku, material: meta.material || undefined, views: projectViews(r, shape), size, notes: meta.notes.map((text) => ({ text })) });
  const image = renderPart(mesh, edges, { ...PART_RENDER, finish: meta.finish });
  return { step, stl, drawing, image, volumeMm3: r.measureVolume(shape), areaMm2: r.measureArea(shape), size };
}
