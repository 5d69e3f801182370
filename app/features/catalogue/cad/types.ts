// What a catalogue part's CAD model yields, independent of the kernel that made it: the mesh for the
// 3D viewer and the rendered images, the edges drawn over them, and the four projected views of the
// technical drawing. Pure data (typed arrays and SVG path strings), so it crosses a worker thread.

/** An indexed triangle mesh in millimetres (Z up, like the model). */
export interface PartMesh {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** A unit normal per vertex (same length as positions); optional: a renderer may derive face normals. */
  normals?: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
}

/** The model's feature edges (B-rep edges, tessellated) as line segments: x1 y1 z1 x2 y2 z2 … */
export interface PartEdges {
  segments: Float32Array;
}

export type ViewName = "front" | "top" | "right" | "iso";

/**
 * One projection of the model for the drawing. Coordinates are SVG user units = millimetres, already
 * in SVG orientation (y grows downwards), as the kernel's hidden-line projection gives them.
 */
export interface ViewProjection {
  name: ViewName;
  /** `d` attributes of the visible outlines. */
  visible: string[];
  /** `d` attributes of the hidden outlines (drawn dashed); empty for the isometric view. */
  hidden: string[];
  /** The extent of the visible outlines, in the same coordinates. */
  box: { minX: number; minY: number; maxX: number; maxY: number };
}

/** A callout the model knows about itself, written on the drawing (e.g. "4 × Ø 19 en Ø 120.7"). */
export interface DrawingNote {
  text: string;
}

export interface DrawingInput {
  /** The product's name and SKU for the title block. */
  title: string;
  sku: string;
  /** What the code is called in the title block: "SKU" for catalogue parts (the default), "Clave" for other drawings. */
  codeLabel?: string;
  /** e.g. "Acero ASTM A105"; optional. */
  material?: string;
  views: Record<ViewName, ViewProjection>;
  /** Overall size of the part in mm (bounding box along X, Y, Z of the model). */
  size: { x: number; y: number; z: number };
  notes: DrawingNote[];
}
