// The four views of a part's technical drawing, projected by the kernel's hidden-line removal and
// turned into compact SVG path data. The kernel module is passed in (it is loaded once per worker),
// so this file never loads OpenCascade itself.
//
// Projection method: first angle (ISO 5456-2 "método E", the NOM/ISO practice in Mexico). The front
// view looks at the part from −Y (X to the right, Z up); the top view looks down from +Z and sits
// below the front view; the right view looks from +X and sits to the left of the front view; the
// isometric view looks from (+X, −Y, +Z) and fills the free quadrant. `drawing.ts` lays them out and
// prints the first-angle symbol.
//
// We read the projected edges ourselves instead of using the kernel's `drawProjection`, which throws
// when a set is empty (a sphere has no hidden lines, an empty part has no lines at all) and gives
// edges seen edge-on (a hole's circle in the front view) as long runs of collinear points.

import type * as Kernel from "replicad";
import type { AnyShape, Edge } from "replicad";
import type { ViewName, ViewProjection } from "./types";

type Replicad = typeof Kernel;
type Point = [number, number];
type Deletable = { delete(): void };

/** Where each view's camera looks from (towards the viewer) and which model axis points right. */
const CAMERAS: Record<ViewName, { direction: [number, number, number]; xAxis: [number, number, number] }> = {
  front: { direction: [0, -1, 0], xAxis: [1, 0, 0] },
  top: { direction: [0, 0, 1], xAxis: [1, 0, 0] },
  right: { direction: [1, 0, 0], xAxis: [0, 1, 0] },
  iso: { direction: [1, -1, 1], xAxis: [1, 1, 0] },
};

const VIEW_NAMES: ViewName[] = ["front", "top", "right", "iso"];

/** Coordinates are rounded to hundredths of a millimetre; closer points are the same point. */
const GRID = 0.01;
/** Hidden lines shorter than this after removing what a visible line covers are dropped (mm). */
const MIN_LENGTH = 0.05;
const SAMPLES = 64;

type Primitive =
  | { kind: "line"; a: Point; b: Point }
  | { kind: "arc"; a: Point; b: Point; rx: number; ry: number; rotation: number; large: 0 | 1; sweep: 0 | 1 }
  | { kind: "poly"; points: Point[] };

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * Projects a part into the drawing's four views. Coordinates are millimetres in SVG orientation
 * (y down). The isometric view carries no hidden lines; a view with nothing to show is empty.
 */
export function projectViews(r: Replicad, shape: AnyShape): Record<ViewName, ViewProjection> {
  const views = {} as Record<ViewName, ViewProjection>;
  for (const name of VIEW_NAMES) views[name] = projectView(r, shape, name);
  return views;
}

function projectView(r: Replicad, shape: AnyShape, name: ViewName): ViewProjection {
  const { direction, xAxis } = CAMERAS[name];
  const camera = new r.ProjectionCamera([0, 0, 0], direction, xAxis);
  let edges: { visible: Edge[]; hidden: Edge[] };
  try {
    edges = r.makeProjectedEdges(shape, camera, name !== "iso");
  } finally {
    camera.delete();
  }
  const visibleBoxes: Box[] = [];
  const visible = edges.visible.flatMap((edge) => edgeToPrimitives(r, edge, visibleBoxes));
  const hidden = edges.hidden.flatMap((edge) => edgeToPrimitives(r, edge, []));
  for (const edge of [...edges.visible, ...edges.hidden]) edge.delete();

  const visibleLines = mergeLines(visible.filter(isLine));
  const hiddenLines = subtractLines(mergeLines(hidden.filter(isLine)), visibleLines);
  const visibleCurves = uniqueCurves(visible.filter((p) => !isLine(p)));
  const visibleKeys = new Set(visibleCurves.map(curveKey));
  const hiddenCurves = uniqueCurves(hidden.filter((p) => !isLine(p))).filter((p) => !visibleKeys.has(curveKey(p)));

  return {
    name,
    visible: chain([...flattenLines(visibleLines), ...visibleCurves]),
    hidden: chain([...flattenLines(hiddenLines), ...hiddenCurves]),
    box: unionBox(visibleBoxes),
  };
}

// --- Edges to primitives -------------------------------------------------------------------------

/** The projected edge as SVG primitives (y flipped); adds its exact extent to `boxes`. */
function edgeToPrimitives(r: Replicad, edge: Edge, boxes: Box[]): Primitive[] {
  const oc = r.getOC();
  const owned: Deletable[] = [];
  const own = <T extends Deletable>(value: T): T => {
    owned.push(value);
    return value;
  };
  try {
    const adaptor = own(new oc.BRepAdaptor_Curve(edge.wrapped));
    const first = adaptor.FirstParameter();
    const last = adaptor.LastParameter();
    const at = (u: number): Point => {
      const p = own(adaptor.Value(u));
      return [p.X(), -p.Y()];
    };
    const type = adaptor.GetType();

    if (type === "GeomAbs_Line") {
      const a = at(first);
      const b = at(last);
      boxes.push(boxOf([a, b]));
      return distance(a, b) < GRID ? [] : [{ kind: "line", a, b }];
    }

    if (type === "GeomAbs_Circle" || type === "GeomAbs_Ellipse") {
      let major: number;
      let minor: number;
      let position;
      if (type === "GeomAbs_Circle") {
        const circle = own(adaptor.Circle());
        major = minor = circle.Radius();
        position = own(circle.Position());
      } else {
        const ellipse = own(adaptor.Ellipse());
        major = ellipse.MajorRadius();
        minor = ellipse.MinorRadius();
        position = own(ellipse.Position());
      }
      const center = own(position.Location());
      const xDir = own(position.XDirection());
      const yDir = own(position.YDirection());
      // In SVG coordinates: P(t) = C + a·cos t·X + b·sin t·Y.
      const c: Point = [center.X(), -center.Y()];
      const x: Point = [xDir.X(), -xDir.Y()];
      const y: Point = [yDir.X(), -yDir.Y()];
      boxes.push(conicBox(c, x, y, major, minor, first, last));
      if (minor >= GRID) return conicArcs(at, first, last, major, minor, (Math.atan2(x[1], x[0]) * 180) / Math.PI);
      // A circle seen edge-on: fall through to the sampled path, which becomes a segment.
    }

    const points: Point[] = [];
    for (let i = 0; i <= SAMPLES; i++) points.push(at(first + ((last - first) * i) / SAMPLES));
    if (type !== "GeomAbs_Circle" && type !== "GeomAbs_Ellipse") boxes.push(boxOf(points));
    return sampledPrimitives(points);
  } finally {
    for (const value of owned.reverse()) value.delete();
  }
}

/** A circle or ellipse between two parameters as SVG arcs (a full turn as two halves). */
function conicArcs(
  at: (u: number) => Point,
  first: number,
  last: number,
  rx: number,
  ry: number,
  rotation: number,
): Primitive[] {
  const span = last - first;
  if (span >= 2 * Math.PI - 1e-9) {
    const middle = first + Math.PI;
    return [...conicArcs(at, first, middle, rx, ry, rotation), ...conicArcs(at, middle, last, rx, ry, rotation)];
  }
  const a = at(first);
  const m = at((first + last) / 2);
  const b = at(last);
  // In SVG's y-down coordinates a positive cross product turns clockwise, which is sweep-flag 1.
  const cross = (m[0] - a[0]) * (b[1] - m[1]) - (m[1] - a[1]) * (b[0] - m[0]);
  return [{ kind: "arc", a, b, rx, ry, rotation, large: span > Math.PI ? 1 : 0, sweep: cross > 0 ? 1 : 0 }];
}

/** Exact extent of P(t) = c + a·cos t·x + b·sin t·y over [first, last]. */
function conicBox(c: Point, x: Point, y: Point, a: number, b: number, first: number, last: number): Box {
  const point = (t: number): Point => [
    c[0] + a * Math.cos(t) * x[0] + b * Math.sin(t) * y[0],
    c[1] + a * Math.cos(t) * x[1] + b * Math.sin(t) * y[1],
  ];
  const points = [point(first), point(last)];
  for (const k of [0, 1]) {
    const t0 = Math.atan2(b * y[k], a * x[k]);
    for (let n = Math.ceil((first - t0) / Math.PI); t0 + n * Math.PI <= last; n++) points.push(point(t0 + n * Math.PI));
  }
  return boxOf(points);
}

/** Sampled points as one segment when they lie on a line, else a simplified polyline. */
function sampledPrimitives(points: Point[]): Primitive[] {
  const start = points[0];
  let far = start;
  for (const p of points) if (distance(p, start) > distance(far, start)) far = p;
  const length = distance(far, start);
  if (length < GRID) return [];
  const u: Point = [(far[0] - start[0]) / length, (far[1] - start[1]) / length];
  const along = (p: Point) => (p[0] - start[0]) * u[0] + (p[1] - start[1]) * u[1];
  const off = (p: Point) => Math.abs((p[0] - start[0]) * u[1] - (p[1] - start[1]) * u[0]);
  if (points.every((p) => off(p) < GRID)) {
    const ts = points.map(along);
    const t0 = Math.min(...ts);
    const t1 = Math.max(...ts);
    const a: Point = [start[0] + u[0] * t0, start[1] + u[1] * t0];
    const b: Point = [start[0] + u[0] * t1, start[1] + u[1] * t1];
    return [{ kind: "line", a, b }];
  }
  return [{ kind: "poly", points: simplify(points, GRID / 2) }];
}

/** Douglas–Peucker. */
function simplify(points: Point[], tolerance: number): Point[] {
  if (points.length <= 2) return points;
  const a = points[0];
  const b = points[points.length - 1];
  let worst = 0;
  let index = 0;
  for (let i = 1; i < points.length - 1; i++) {
    const d = distanceToSegment(points[i], a, b);
    if (d > worst) {
      worst = d;
      index = i;
    }
  }
  if (worst <= tolerance) return [a, b];
  return [...simplify(points.slice(0, index + 1), tolerance).slice(0, -1), ...simplify(points.slice(index), tolerance)];
}

// --- Straight lines: merge overlaps, remove hidden lines under visible ones ------------------------

type LinePrimitive = Extract<Primitive, { kind: "line" }>;

/** Collinear segments on one carrier line, as disjoint intervals along its direction. */
interface Carrier {
  u: Point;
  offset: number;
  intervals: [number, number][];
}

function isLine(p: Primitive): p is LinePrimitive {
  return p.kind === "line";
}

function carrierOf(line: LinePrimitive): { key: string; u: Point; offset: number; t: [number, number] } {
  const length = distance(line.a, line.b);
  let u: Point = [(line.b[0] - line.a[0]) / length, (line.b[1] - line.a[1]) / length];
  if (u[0] < -1e-9 || (Math.abs(u[0]) <= 1e-9 && u[1] < 0)) u = [-u[0], -u[1]];
  const offset = u[0] * line.a[1] - u[1] * line.a[0];
  const ta = u[0] * line.a[0] + u[1] * line.a[1];
  const tb = u[0] * line.b[0] + u[1] * line.b[1];
  const key = `${Math.round(u[0] * 1e4) + 0}:${Math.round(u[1] * 1e4) + 0}:${Math.round(offset / GRID) + 0}`;
  return { key, u, offset, t: [Math.min(ta, tb), Math.max(ta, tb)] };
}

function mergeLines(lines: LinePrimitive[]): Map<string, Carrier> {
  const carriers = new Map<string, Carrier>();
  for (const line of lines) {
    const { key, u, offset, t } = carrierOf(line);
    const carrier = carriers.get(key) ?? { u, offset, intervals: [] };
    carrier.intervals.push(t);
    carriers.set(key, carrier);
  }
  for (const carrier of carriers.values()) {
    const sorted = carrier.intervals.sort((p, q) => p[0] - q[0]);
    const merged: [number, number][] = [];
    for (const [t0, t1] of sorted) {
      const lastInterval = merged[merged.length - 1];
      if (lastInterval && t0 <= lastInterval[1] + GRID) lastInterval[1] = Math.max(lastInterval[1], t1);
      else merged.push([t0, t1]);
    }
    carrier.intervals = merged;
  }
  return carriers;
}

function subtractLines(hidden: Map<string, Carrier>, visible: Map<string, Carrier>): Map<string, Carrier> {
  for (const [key, carrier] of hidden) {
    const covering = visible.get(key)?.intervals ?? [];
    let pieces = carrier.intervals;
    for (const [c0, c1] of covering) {
      pieces = pieces.flatMap(([t0, t1]): [number, number][] => {
        if (c1 <= t0 || c0 >= t1) return [[t0, t1]];
        const rest: [number, number][] = [];
        if (c0 > t0) rest.push([t0, c0]);
        if (c1 < t1) rest.push([c1, t1]);
        return rest;
      });
    }
    carrier.intervals = pieces.filter(([t0, t1]) => t1 - t0 >= MIN_LENGTH);
  }
  return hidden;
}

function flattenLines(carriers: Map<string, Carrier>): LinePrimitive[] {
  const lines: LinePrimitive[] = [];
  for (const { u, offset, intervals } of carriers.values()) {
    // p = t·u + offset·n with n = (−u.y, u.x)
    const point = (t: number): Point => [t * u[0] - offset * u[1], t * u[1] + offset * u[0]];
    for (const [t0, t1] of intervals) lines.push({ kind: "line", a: point(t0), b: point(t1) });
  }
  return lines;
}

// --- Curves --------------------------------------------------------------------------------------

/** Same curve whichever way it runs: its rounded endpoints (sorted) and the points between. */
function curveKey(p: Primitive): string {
  if (p.kind === "line") return "";
  if (p.kind === "arc") {
    const ends = [pointKey(p.a), pointKey(p.b)].sort();
    return `a:${ends.join(";")}:${round(p.rx)}:${round(p.ry)}:${p.large}:${pointKey(p.a) === ends[0] ? p.sweep : 1 - p.sweep}`;
  }
  const forward = p.points.map(pointKey).join(";");
  const backward = [...p.points].reverse().map(pointKey).join(";");
  return `p:${forward < backward ? forward : backward}`;
}

function uniqueCurves(curves: Primitive[]): Primitive[] {
  const seen = new Set<string>();
  return curves.filter((curve) => {
    const key = curveKey(curve);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// --- Output --------------------------------------------------------------------------------------

function startOf(p: Primitive): Point {
  return p.kind === "poly" ? p.points[0] : p.a;
}

function endOf(p: Primitive): Point {
  return p.kind === "poly" ? p.points[p.points.length - 1] : p.b;
}

function reversed(p: Primitive): Primitive {
  if (p.kind === "line") return { ...p, a: p.b, b: p.a };
  if (p.kind === "arc") return { ...p, a: p.b, b: p.a, sweep: p.sweep === 1 ? 0 : 1 };
  return { kind: "poly", points: [...p.points].reverse() };
}

/** Draws from the primitive's start (already reached) to its end. */
function drawTo(p: Primitive): string {
  if (p.kind === "line") return `L${xy(p.b)}`;
  if (p.kind === "arc") return `A${round(p.rx)} ${round(p.ry)} ${round(p.rotation)} ${p.large} ${p.sweep} ${xy(p.b)}`;
  return p.points
    .slice(1)
    .map((point) => `L${xy(point)}`)
    .join("");
}

/** Joins primitives that meet end to end into as few `d` strings as a greedy walk finds. */
function chain(primitives: Primitive[]): string[] {
  const byPoint = new Map<string, number[]>();
  primitives.forEach((p, index) => {
    for (const key of new Set([pointKey(startOf(p)), pointKey(endOf(p))])) {
      byPoint.set(key, [...(byPoint.get(key) ?? []), index]);
    }
  });
  const used = new Set<number>();
  const paths: string[] = [];
  primitives.forEach((primitive, index) => {
    if (used.has(index)) return;
    used.add(index);
    const begin = pointKey(startOf(primitive));
    let d = `M${xy(startOf(primitive))}${drawTo(primitive)}`;
    let current = primitive;
    for (;;) {
      const end = pointKey(endOf(current));
      const nextIndex = (byPoint.get(end) ?? []).find((candidate) => !used.has(candidate));
      if (nextIndex === undefined) break;
      used.add(nextIndex);
      const next = primitives[nextIndex];
      current = pointKey(startOf(next)) === end ? next : reversed(next);
      d += drawTo(current);
    }
    if (current.kind === "line" && pointKey(endOf(current)) === begin && d.lastIndexOf("M") === 0) {
      d = `${d.slice(0, d.lastIndexOf("L"))}Z`;
    }
    paths.push(d);
  });
  return paths;
}

// --- Small helpers -------------------------------------------------------------------------------

function round(value: number): number {
  return Math.round(value * 100) / 100 + 0;
}

function xy(p: Point): string {
  return `${round(p[0])} ${round(p[1])}`;
}

function pointKey(p: Point): string {
  return xy(p);
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const length = distance(a, b);
  if (length === 0) return distance(p, a);
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length ** 2));
  return distance(p, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
}

function boxOf(points: Point[]): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

function unionBox(boxes: Box[]): Box {
  if (boxes.length === 0) return { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  return {
    minX: round(Math.min(...boxes.map((b) => b.minX))),
    minY: round(Math.min(...boxes.map((b) => b.minY))),
    maxX: round(Math.max(...boxes.map((b) => b.maxX))),
    maxY: round(Math.max(...boxes.map((b) => b.maxY))),
  };
}
