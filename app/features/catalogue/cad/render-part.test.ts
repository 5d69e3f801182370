import { describe, expect, it } from "vitest";
import { composeParts, renderPart, type RenderedImage } from "./render-part";
import type { PartEdges, PartMesh } from "./types";

type V3 = [number, number, number];

/** An axis-aligned box: 24 vertices (4 per side, with the side's normal), 12 triangles wound outwards. */
function box(min: V3, max: V3, withNormals = true): PartMesh {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const corner = (x: number, y: number, z: number): V3 => [x ? max[0] : min[0], y ? max[1] : min[1], z ? max[2] : min[2]];
  // Each side: its normal and four corners counter-clockwise seen from outside.
  const sides: Array<[V3, V3[]]> = [
    [[0, 0, 1], [corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1)]],
    [[0, 0, -1], [corner(0, 0, 0), corner(0, 1, 0), corner(1, 1, 0), corner(1, 0, 0)]],
    [[0, -1, 0], [corner(0, 0, 0), corner(1, 0, 0), corner(1, 0, 1), corner(0, 0, 1)]],
    [[0, 1, 0], [corner(1, 1, 0), corner(0, 1, 0), corner(0, 1, 1), corner(1, 1, 1)]],
    [[1, 0, 0], [corner(1, 0, 0), corner(1, 1, 0), corner(1, 1, 1), corner(1, 0, 1)]],
    [[-1, 0, 0], [corner(0, 1, 0), corner(0, 0, 0), corner(0, 0, 1), corner(0, 1, 1)]],
  ];
  for (const [normal, quad] of sides) {
    const base = positions.length / 3;
    for (const p of quad) {
      positions.push(...p);
      normals.push(...normal);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { positions: Float32Array.from(positions), normals: withNormals ? Float32Array.from(normals) : undefined, indices: Uint32Array.from(indices) };
}

function cube(size: number, centre: V3 = [0, 0, 0]): PartMesh {
  const h = size / 2;
  return box([centre[0] - h, centre[1] - h, centre[2] - h], [centre[0] + h, centre[1] + h, centre[2] + h]);
}

function pixel(image: RenderedImage, x: number, y: number): [number, number, number, number] {
  const o = (y * image.width + x) * 4;
  return [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!, image.data[o + 3]!];
}

const luminance = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;

const BACKGROUND = "#204060";
const BG: [number, number, number, number] = [0x20, 0x40, 0x60, 255];
const FRONT = [0, -1, 0] as const;

describe("renderPart", () => {
  // 200×100 output, 10 % margin: a 10 mm cube seen from the front fills 80 × 80 px in the middle.
  const front = renderPart(cube(10), null, { width: 200, height: 100, direction: FRONT, margin: 0.1, background: BACKGROUND, color: "#e0e0e0", outline: false });

  it("fits a cube seen from the front into the expected centred square", () => {
    expect(front.width).toBe(200);
    expect(front.height).toBe(100);
    expect(front.data).toHaveLength(200 * 100 * 4);
    for (const [x, y] of [[100, 50], [62, 12], [137, 12], [62, 87], [137, 87]] as const) {
      const [r, g, b, a] = pixel(front, x, y);
      expect(a).toBe(255);
      // Grey part, far from the blue background.
      expect(Math.abs(r - g)).toBeLessThan(12);
      expect(Math.abs(b - BG[2])).toBeGreaterThan(40);
    }
    for (const [x, y] of [[57, 50], [142, 50], [100, 7], [100, 92], [0, 0], [199, 0], [0, 99], [199, 99], [30, 50], [170, 50]] as const) {
      expect(pixel(front, x, y)).toEqual(BG);
    }
  });

  it("shades a flat face evenly apart from the gentle falloff, and leaves the background untouched", () => {
    const centre = luminance(pixel(front, 100, 50));
    expect(Math.abs(luminance(pixel(front, 70, 50)) - centre)).toBeLessThan(25);
    let untouched = 0;
    for (let y = 0; y < 100; y += 1) for (const x of [0, 1, 2, 197, 198, 199]) if (pixel(front, x, y).join() === BG.join()) untouched += 1;
    expect(untouched).toBe(600);
  });

  it("keeps the nearer of two cubes in front, whatever order they are drawn in", () => {
    const big = { mesh: cube(20), color: "#d02020" };
    const nearSmall = { mesh: cube(4, [0, -15, 0]), color: "#20c020" };
    const farSmall = { mesh: cube(4, [0, 15, 0]), color: "#20c020" };
    const options = { width: 120, height: 120, direction: FRONT, background: BACKGROUND, outline: false };
    for (const parts of [[big, nearSmall], [nearSmall, big]]) {
      const image = composeParts(parts, options);
      const [r, g] = pixel(image, 60, 60);
      expect(g).toBeGreaterThan(r + 40); // the small green cube occludes the big red one
      const [r2, g2] = pixel(image, 30, 60);
      expect(r2).toBeGreaterThan(g2 + 40); // beside it, the big cube shows
    }
    for (const parts of [[big, farSmall], [farSmall, big]]) {
      const [r, g] = pixel(composeParts(parts, options), 60, 60);
      expect(r).toBeGreaterThan(g + 40); // the small cube behind is hidden
    }
  });

  it("draws visible edges dark over their faces and leaves hidden ones out", () => {
    const segments = (pairs: Array<[V3, V3]>): PartEdges => ({ segments: Float32Array.from(pairs.flatMap(([a, b]) => [...a, ...b])) });
    const options = { width: 200, height: 100, direction: FRONT, margin: 0.1, background: BACKGROUND, color: "#e0e0e0", outline: false, lineWidth: 2 } as const;
    // A diagonal across the front face (y = -5): visible. One across the back face (y = 5): hidden.
    // (Neither lies along a mesh edge, so neither is taken for a seam.)
    const visible = renderPart(cube(10), segments([[[5, -5, -5], [-5, -5, 5]]]), options);
    const hidden = renderPart(cube(10), segments([[[-5, 5, -5], [5, 5, 5]]]), options);
    const plain = renderPart(cube(10), null, options);
    expect(luminance(pixel(visible, 100, 50))).toBeLessThan(luminance(pixel(plain, 100, 50)) - 80);
    expect(pixel(hidden, 100, 50)).toEqual(pixel(plain, 100, 50));
    // Off the line, the face is as before.
    expect(pixel(visible, 120, 30)).toEqual(pixel(plain, 120, 30));
  });

  it("drops edges where the surface is smooth (seams) and keeps creases", () => {
    const options = { width: 200, height: 100, direction: [1, -1.2, 0.9], background: BACKGROUND, color: "#e0e0e0", outline: false, shadow: false, lineWidth: 2 } as const;
    const plain = renderPart(cube(10), null, options);
    // The front face's diagonal is the edge its two triangles share, with the same normals: a seam.
    const seam = renderPart(cube(10), { segments: Float32Array.from([-5, -5, -5, 5, -5, 5]) }, options);
    expect(seam.data).toEqual(plain.data);
    // The front face's top edge is where it meets the top face: a crease, drawn.
    const crease = renderPart(cube(10), { segments: Float32Array.from([-5, -5, 5, 5, -5, 5]) }, options);
    let darker = 0;
    for (let i = 0; i < plain.data.length; i += 4) if (crease.data[i]! < plain.data[i]! - 60) darker += 1;
    expect(darker).toBeGreaterThan(40);
  });

  it("outlines the silhouette", () => {
    const outlined = renderPart(cube(10), null, { width: 200, height: 100, direction: FRONT, margin: 0.1, background: BACKGROUND, color: "#e0e0e0", lineWidth: 2 });
    expect(luminance(pixel(outlined, 60, 50))).toBeLessThan(luminance(pixel(front, 60, 50)) - 80);
    expect(pixel(outlined, 100, 50)).toEqual(pixel(front, 100, 50));
  });

  it("lights faces turned to the key light (upper left) more than those turned away", () => {
    // Seen from the front right and above, the cube shows its top (+Z), its left side (−Y) and its
    // right side (+X). Each is measured alone, on a transparent background.
    const mean = (mesh: PartMesh) => {
      const image = renderPart(mesh, null, { width: 80, height: 80, background: "transparent", color: "#b0b0b0", outline: false, shadow: false });
      let sum = 0;
      let count = 0;
      for (let i = 0; i < image.data.length; i += 4) {
        if (image.data[i + 3] !== 255) continue;
        sum += luminance([image.data[i]!, image.data[i + 1]!, image.data[i + 2]!]);
        count += 1;
      }
      expect(count).toBeGreaterThan(200);
      return sum / count;
    };
    const side = (name: "top" | "left" | "right") => {
      const whole = cube(10);
      const at = { top: 0, left: 2, right: 4 }[name];
      return { positions: whole.positions, normals: whole.normals, indices: whole.indices.slice(at * 6, at * 6 + 6) };
    };
    const top = mean(side("top"));
    const left = mean(side("left"));
    const right = mean(side("right"));
    expect(top).toBeGreaterThan(left + 10);
    expect(left).toBeGreaterThan(right + 10);
  });

  it("lights a face the same whatever its winding and whether the mesh has normals", () => {
    const options = { width: 120, height: 90, background: BACKGROUND, color: "#c08040" } as const;
    const reference = renderPart(cube(10), null, options);
    const flipped = cube(10);
    for (let i = 0; i < flipped.indices.length; i += 3) [flipped.indices[i + 1], flipped.indices[i + 2]] = [flipped.indices[i + 2]!, flipped.indices[i + 1]!];
    expect(renderPart(flipped, null, options).data).toEqual(reference.data);
    const bare = { ...cube(10), normals: undefined };
    expect(renderPart(bare, null, options).data).toEqual(reference.data);
    const inverted = cube(10);
    inverted.normals = inverted.normals!.map((n) => -n);
    expect(renderPart(inverted, null, options).data).toEqual(reference.data);
  });

  it("leaves a transparent background transparent and the part opaque", () => {
    const image = renderPart(cube(10), null, { width: 100, height: 100, background: "transparent", finish: "bronce", shadow: false });
    expect(pixel(image, 0, 0)[3]).toBe(0);
    expect(pixel(image, 99, 99)[3]).toBe(0);
    expect(pixel(image, 50, 50)[3]).toBe(255);
  });

  it("lays a soft shadow on the floor under a part seen from above", () => {
    const options = { width: 160, height: 120, background: "#ffffff", color: "#c0c0c0", direction: [0.2, -1, 0.6] } as const;
    const withShadow = renderPart(cube(10), null, options);
    const without = renderPart(cube(10), null, { ...options, shadow: false });
    // Just below the cube's lowest point on screen the floor is darker than white; the corners are not.
    let bottom = 0;
    for (let y = 119; y >= 0; y -= 1) if (pixel(without, 80, y)[0] !== 255) { bottom = y; break; }
    expect(pixel(without, 80, bottom + 2)).toEqual([255, 255, 255, 255]);
    expect(pixel(withShadow, 80, bottom + 2)[0]).toBeLessThan(235);
    expect(pixel(withShadow, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it("renders an empty mesh as background only and rejects an invalid size", () => {
    const empty = renderPart({ positions: new Float32Array(0), indices: new Uint32Array(0) }, null, { width: 10, height: 10, background: BACKGROUND });
    expect(pixel(empty, 5, 5)).toEqual(BG);
    expect(() => renderPart(cube(1), null, { width: 0, height: 10 })).toThrow();
  });
});
