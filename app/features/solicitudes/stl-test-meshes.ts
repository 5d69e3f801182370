// Meshes with known volume and STL writers, for unit and browser tests (never used by the app).

type V = [number, number, number];

function push(out: number[], a: V, b: V, c: V) {
  out.push(...a, ...b, ...c);
}

/** Axis-aligned box with outward (counter-clockwise) winding: 12 triangles. */
export function boxMesh(size: V, origin: V = [0, 0, 0], omitFaces: number[] = []): Float32Array {
  const [x0, y0, z0] = origin;
  const [x1, y1, z1] = [x0 + size[0], y0 + size[1], z0 + size[2]];
  const p = (i: number): V => [i & 1 ? x1 : x0, i & 2 ? y1 : y0, i & 4 ? z1 : z0];
  // Each face as a quad of corner indices, counter-clockwise seen from outside.
  const faces: [number, number, number, number][] = [
    [0, 2, 3, 1], // z0
    [4, 5, 7, 6], // z1
    [0, 1, 5, 4], // y0
    [2, 6, 7, 3], // y1
    [0, 4, 6, 2], // x0
    [1, 3, 7, 5], // x1
  ];
  const out: number[] = [];
  faces.forEach(([a, b, c, d], index) => {
    if (omitFaces.includes(index)) return;
    push(out, p(a), p(b), p(c));
    push(out, p(a), p(c), p(d));
  });
  return new Float32Array(out);
}

/** Regular tetrahedron of edge 2√2 (alternate corners of a 2 mm cube): volume 8/3 mm³. */
export function tetrahedronMesh(): Float32Array {
  const a: V = [1, 1, 1], b: V = [1, -1, -1], c: V = [-1, 1, -1], d: V = [-1, -1, 1];
  const out: number[] = [];
  push(out, a, b, c);
  push(out, a, d, b);
  push(out, a, c, d);
  push(out, b, d, c);
  return new Float32Array(out);
}

/** Regular octahedron with vertices at ±r on each axis: volume 4/3 r³. */
export function octahedronMesh(r: number): Float32Array {
  const out: number[] = [];
  for (const sx of [1, -1]) {
    for (const sy of [1, -1]) {
      for (const sz of [1, -1]) {
        const x: V = [sx * r, 0, 0], y: V = [0, sy * r, 0], z: V = [0, 0, sz * r];
        // Outward when the sign product is positive; otherwise swap two vertices.
        if (sx * sy * sz > 0) push(out, x, y, z);
        else push(out, x, z, y);
      }
    }
  }
  return new Float32Array(out);
}

/**
 * UV sphere: `stacks` bands between the poles, `slices` around. Its exact volume, computed separately
 * (each band is a frustum of a regular n-gon pyramid), is returned with it.
 */
export function uvSphereMesh(radius: number, stacks: number, slices: number): { triangles: Float32Array; exactVolume: number } {
  const ring = (i: number) => {
    const theta = (Math.PI * i) / stacks;
    return { r: Math.fround(radius * Math.sin(theta)), z: Math.fround(radius * Math.cos(theta)) };
  };
  const point = (i: number, j: number): V => {
    const { r, z } = ring(i);
    if (i === 0 || i === stacks) return [0, 0, z];
    const phi = (2 * Math.PI * (j % slices)) / slices;
    return [r * Math.cos(phi), r * Math.sin(phi), z];
  };
  const out = new Float32Array(9 * 2 * slices * (stacks - 1));
  let k = 0;
  const tri = (a: V, b: V, c: V) => {
    out.set(a, k);
    out.set(b, k + 3);
    out.set(c, k + 6);
    k += 9;
  };
  for (let i = 0; i < stacks; i++) {
    for (let j = 0; j < slices; j++) {
      const a = point(i, j), b = point(i + 1, j), c = point(i + 1, j + 1), d = point(i, j + 1);
      if (i !== stacks - 1) tri(a, b, c);
      if (i !== 0) tri(a, c, d);
    }
  }
  // Exact volume from the float32 vertices actually written: Σ h/3 (A1 + A2 + √(A1·A2)).
  const polygonArea = (r: number) => (slices / 2) * r * r * Math.sin((2 * Math.PI) / slices);
  let exactVolume = 0;
  for (let i = 0; i < stacks; i++) {
    const top = ring(i), bottom = ring(i + 1);
    const rTop = i === 0 ? 0 : Math.hypot(point(i, 0)[0], point(i, 0)[1]);
    const rBottom = i + 1 === stacks ? 0 : Math.hypot(point(i + 1, 0)[0], point(i + 1, 0)[1]);
    const a1 = polygonArea(rTop), a2 = polygonArea(rBottom);
    exactVolume += ((top.z - bottom.z) / 3) * (a1 + a2 + Math.sqrt(a1 * a2));
  }
  return { triangles: out.subarray(0, k), exactVolume };
}

/** Swaps the 2nd and 3rd vertex of every triangle (turns the mesh inside out). */
export function invertWinding(triangles: Float32Array): Float32Array {
  const out = triangles.slice();
  for (let o = 0; o < out.length; o += 9) {
    for (let j = 0; j < 3; j++) {
      out[o + 3 + j] = triangles[o + 6 + j];
      out[o + 6 + j] = triangles[o + 3 + j];
    }
  }
  return out;
}

/** Binary STL (80-byte header, uint32 count, 50 bytes per triangle). */
export function toBinaryStl(triangles: Float32Array, header = "Forja test mesh"): Uint8Array {
  const count = triangles.length / 9;
  const bytes = new Uint8Array(84 + 50 * count);
  bytes.set(new TextEncoder().encode(header).subarray(0, 80));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  for (let i = 0; i < count; i++) {
    const base = 84 + 50 * i + 12;
    for (let j = 0; j < 9; j++) view.setFloat32(base + 4 * j, triangles[9 * i + j], true);
  }
  return bytes;
}

/** ASCII STL; numbers are written so that they read back as the same float32. */
export function toAsciiStl(triangles: Float32Array, name = "pieza de prueba"): string {
  const lines = [`solid ${name}`];
  for (let o = 0; o < triangles.length; o += 9) {
    lines.push("  facet normal 0 0 0", "    outer loop");
    for (let v = 0; v < 3; v++) lines.push(`      vertex ${triangles[o + 3 * v]} ${triangles[o + 3 * v + 1]} ${triangles[o + 3 * v + 2]}`);
    lines.push("    endloop", "  endfacet");
  }
  lines.push(`endsolid ${name}`, "");
  return lines.join("\n");
}
