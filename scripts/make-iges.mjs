// Writes IGES 5.3 test fixtures under tests/fixtures/cad/: the solids of scripts/make-step.mjs (a
// 10 mm cube, a 1 in cube, a block with a through-hole) and a Ø10 × 10 mm cylinder, each face a
// trimmed surface (type 144) as CAD systems export them: a bilinear B-spline patch (128) or a
// surface of revolution (120), bounded by curves on the surface (142) whose model-space curves are
// lines (110, joined in a composite curve 102) or a circle (100).
//   node scripts/make-iges.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { blockWithHole, box } from "./make-step.mjs";

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const scaleVec = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const add3 = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const unitVec = (a) => scaleVec(a, 1 / Math.hypot(a[0], a[1], a[2]));

/** An IGES real: always with a decimal point, no exponent for the sizes used here. */
const real = (n) => {
  const rounded = Math.round(n * 1e9) / 1e9 + 0; // + 0 turns -0 into 0
  return Number.isInteger(rounded) ? `${rounded}.` : String(rounded);
};
const hollerith = (text) => `${text.length}H${text}`;

/** Collects entities and writes the five sections. */
class IgesWriter {
  entities = [];
  /** Adds an entity; returns its directory-entry pointer (the odd line number of its first D line). */
  add(type, params, { form = 0, dependent = false } = {}) {
    this.entities.push({ type, params, form, dependent });
    return 2 * this.entities.length - 1;
  }

  text({ name, unit }) {
    const line = (data, section, n) => `${data.padEnd(72)}${section}${String(n).padStart(7)}`;
    const start = [`Forja: ${name} (scripts/make-iges.mjs)`.slice(0, 72)];
    const unitFlag = unit === "in" ? 1 : 2;
    const global = [
      "1H,", "1H;", hollerith(name), hollerith(`${name}.igs`), hollerith("Forja"), hollerith("make-iges 1"),
      "32", "38", "6", "308", "15", hollerith(name), "1.", String(unitFlag), hollerith(unit === "in" ? "INCH" : "MM"),
      "1", "0.01", hollerith("20261124.000000"), "1.E-06", "100.", hollerith("Forja"), hollerith("Forja"), "11", "0", hollerith("20261124.000000"),
    ];
    const wrap = (items, width, end) => {
      const lines = [];
      let current = "";
      items.forEach((item, i) => {
        const piece = item + (i === items.length - 1 ? end : ",");
        if (current.length + piece.length > width) {
          lines.push(current);
          current = "";
        }
        current += piece;
      });
      if (current) lines.push(current);
      return lines;
    };
    const globalLines = wrap(global, 72, ";");
    const directory = [];
    const parameters = [];
    this.entities.forEach((entity, index) => {
      const de = 2 * index + 1;
      const first = parameters.length + 1;
      const lines = wrap([String(entity.type), ...entity.params.map(String)], 64, ";");
      for (const data of lines) parameters.push(`${data.padEnd(64)} ${String(de).padStart(7)}P${String(parameters.length + 1).padStart(7)}`);
      const status = entity.dependent ? "00010000" : "00000000";
      const field = (value) => String(value).padStart(8);
      directory.push(line([entity.type, first, 0, 1, 0, 0, 0, 0, status].map(field).join(""), "D", de));
      directory.push(line([entity.type, 0, 0, lines.length, entity.form, "", "", "", 0].map(field).join(""), "D", de + 1));
    });
    const sections = [
      ...start.map((data, i) => line(data, "S", i + 1)),
      ...globalLines.map((data, i) => line(data, "G", i + 1)),
      ...directory,
      ...parameters,
    ];
    const terminate = `${"S".padEnd(1)}${String(start.length).padStart(7)}G${String(globalLines.length).padStart(7)}D${String(directory.length).padStart(7)}P${String(parameters.length).padStart(7)}`;
    return [...sections, line(terminate, "T", 1), ""].join("\n");
  }
}

/** A bilinear B-spline patch (128) through four corners: p00, p10 (along u), p01 (along v), p11. */
function bilinearPatch(writer, [p00, p10, p01, p11]) {
  const points = [p00, p10, p01, p11].flatMap((p) => p.map(real));
  return writer.add(128, [1, 1, 1, 1, 0, 0, 1, 0, 0, "0.", "0.", "1.", "1.", "0.", "0.", "1.", "1.", "1.", "1.", "1.", "1.", ...points, "0.", "1.", "0.", "1."], { dependent: true });
}

/** A closed polygon as a composite curve (102) of lines (110), wrapped as a curve on `surface` (142). */
function polygonBoundary(writer, surface, points) {
  const lines = points.map((p, i) => writer.add(110, [...p, ...points[(i + 1) % points.length]].map(real), { dependent: true }));
  const composite = writer.add(102, [lines.length, ...lines], { dependent: true });
  return writer.add(142, [0, surface, 0, composite, 2], { dependent: true });
}

/** The faces of a polyhedral solid (make-step.mjs's description) as trimmed planar patches. */
function addPolyhedron(writer, { vertices, faces }) {
  for (const loops of faces) {
    const outer = loops[0].map((v) => vertices[v]);
    const p0 = outer[0];
    // The patch's u × v is the face's outward normal, so the face needs no reversal.
    const normal = unitVec(cross(sub(outer[1], p0), sub(outer[2], p0)));
    const u = unitVec(sub(outer[1], p0));
    const v = cross(normal, u);
    const along = outer.map((p) => [dot(sub(p, p0), u), dot(sub(p, p0), v)]);
    const [u0, u1] = [Math.min(...along.map((a) => a[0])), Math.max(...along.map((a) => a[0]))];
    const [v0, v1] = [Math.min(...along.map((a) => a[1])), Math.max(...along.map((a) => a[1]))];
    const at = (a, b) => add3(p0, add3(scaleVec(u, a), scaleVec(v, b)));
    const surface = bilinearPatch(writer, [at(u0, v0), at(u1, v0), at(u0, v1), at(u1, v1)]);
    const boundaries = loops.map((loop) => polygonBoundary(writer, surface, loop.map((i) => vertices[i])));
    writer.add(144, [surface, 1, boundaries.length - 1, ...boundaries]);
  }
}

/** A cylinder of radius r and height h on the XY plane, centred on the Z axis. */
function addCylinder(writer, r, h) {
  // Side: the line x = r from z = h down to z = 0 revolved about Z (that order makes the normal point out).
  const axis = writer.add(110, [0, 0, 0, 0, 0, h].map(real), { dependent: true });
  const generatrix = writer.add(110, [r, 0, h, r, 0, 0].map(real), { dependent: true });
  writer.add(120, [axis, generatrix, "0.", real(2 * Math.PI)]);
  // Caps: square patches trimmed by the full circle (100), bottom facing -Z and top facing +Z.
  for (const [z, down] of [[0, true], [h, false]]) {
    const corners = down
      ? [[-r, -r, z], [-r, r, z], [r, -r, z], [r, r, z]]
      : [[-r, -r, z], [r, -r, z], [-r, r, z], [r, r, z]];
    const surface = bilinearPatch(writer, corners);
    const circle = writer.add(100, [real(z), "0.", "0.", real(r), "0.", real(r), "0."], { dependent: true });
    const boundary = writer.add(142, [0, surface, 0, circle, 2], { dependent: true });
    writer.add(144, [surface, 1, 0, boundary]);
  }
}

export function igesText(build, { name, unit = "mm" }) {
  const writer = new IgesWriter();
  build(writer);
  return writer.text({ name, unit });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? "tests/fixtures/cad";
  const write = (file, text) => fs.writeFileSync(path.join(dir, file), text);
  write("cube-10mm.igs", igesText((w) => addPolyhedron(w, box([0, 0, 0], [10, 10, 10])), { name: "cubo-10mm" }));
  write("cube-1in.igs", igesText((w) => addPolyhedron(w, box([0, 0, 0], [1, 1, 1])), { name: "cubo-1in", unit: "in" }));
  write("block-with-hole.igs", igesText((w) => addPolyhedron(w, blockWithHole(20, 10, 10)), { name: "bloque-con-agujero" }));
  write("cylinder-d10x10.igs", igesText((w) => addCylinder(w, 5, 10), { name: "cilindro-d10x10" }));
}
