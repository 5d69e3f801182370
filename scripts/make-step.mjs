// Writes STEP (ISO 10303-21, AP214) files of polyhedral solids: the CAD test fixtures under
// tests/fixtures/cad/ and, with --large, a big file of many solids to time the server's geometry
// worker (`node scripts/make-step.mjs --large 50 /tmp/large.step`, then scripts/time-geometry.mjs).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const fmt = (n) => (Number.isInteger(n) ? `${n}.` : String(n));
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unitVec = (a) => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/**
 * A solid as vertices and faces; each face is a list of loops (outer first, counter-clockwise seen
 * from outside; holes clockwise), each loop a list of vertex indices.
 */
export function box([x0, y0, z0], [dx, dy, dz]) {
  const [x1, y1, z1] = [x0 + dx, y0 + dy, z0 + dz];
  const vertices = [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0], [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]];
  const faces = [[[0, 3, 2, 1]], [[4, 5, 6, 7]], [[0, 1, 5, 4]], [[1, 2, 6, 5]], [[2, 3, 7, 6]], [[3, 0, 4, 7]]];
  return { vertices, faces };
}

/** A w × w × h block with a square through-hole of side `hole` along z, centred. */
export function blockWithHole(w, h, hole) {
  const a = (w - hole) / 2, b = a + hole;
  const ring = (z) => [[0, 0, z], [w, 0, z], [w, w, z], [0, w, z], [a, a, z], [b, a, z], [b, b, z], [a, b, z]];
  const vertices = [...ring(0), ...ring(h)];
  const faces = [
    [[0, 3, 2, 1], [4, 5, 6, 7]], // bottom (normal -z), hole loop reversed
    [[8, 9, 10, 11], [12, 15, 14, 13]], // top
    [[0, 1, 9, 8]], [[1, 2, 10, 9]], [[2, 3, 11, 10]], [[3, 0, 8, 11]], // outer walls
    [[4, 12, 13, 5]], [[5, 13, 14, 6]], [[6, 14, 15, 7]], [[7, 15, 12, 4]], // hole walls (facing the hole)
  ];
  return { vertices, faces };
}

const UNITS = {
  mm: ["#1=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));"],
  in: [
    "#1=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.));",
    "#90=DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);",
    "#91=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#1);",
    "#92=(CONVERSION_BASED_UNIT('INCH',#91)LENGTH_UNIT()NAMED_UNIT(#90));",
  ],
};

/** The STEP text of `solids` in `unit` ("mm" or "in"): one product, one shape representation. */
export function stepText(solids, { name = "pieza", unit = "mm" } = {}) {
  const lines = [];
  let next = 100;
  const add = (text) => {
    const id = next++;
    lines.push(`#${id}=${text};`);
    return `#${id}`;
  };
  const lengthUnit = unit === "in" ? "#92" : "#1";
  const breps = [];
  for (const { vertices, faces } of solids) {
    const points = vertices.map((v) => add(`CARTESIAN_POINT('',(${v.map(fmt).join(",")}))`));
    const vps = points.map((p) => add(`VERTEX_POINT('',${p})`));
    const edges = new Map();
    const edgeOf = (a, b) => {
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      if (!edges.has(key)) {
        const [s, e] = a < b ? [a, b] : [b, a];
        const d = sub(vertices[e], vertices[s]);
        const len = Math.hypot(...d);
        const dir = add(`DIRECTION('',(${unitVec(d).map(fmt).join(",")}))`);
        const vec = add(`VECTOR('',${dir},${fmt(len)})`);
        const line = add(`LINE('',${points[s]},${vec})`);
        edges.set(key, { start: s, curve: add(`EDGE_CURVE('',${vps[s]},${vps[e]},${line},.T.)`) });
      }
      const edge = edges.get(key);
      return add(`ORIENTED_EDGE('',*,*,${edge.curve},${edge.start === a ? ".T." : ".F."})`);
    };
    const faceIds = faces.map((loops) => {
      const outer = loops[0];
      const p0 = vertices[outer[0]];
      const normal = unitVec(cross(sub(vertices[outer[1]], p0), sub(vertices[outer[2]], p0)));
      const ref = unitVec(sub(vertices[outer[1]], p0));
      const axis = add(`AXIS2_PLACEMENT_3D('',${points[outer[0]]},${add(`DIRECTION('',(${normal.map(fmt).join(",")}))`)},${add(`DIRECTION('',(${ref.map(fmt).join(",")}))`)})`);
      const plane = add(`PLANE('',${axis})`);
      const bounds = loops.map((loop, i) => {
        const oriented = loop.map((v, k) => edgeOf(v, loop[(k + 1) % loop.length]));
        const edgeLoop = add(`EDGE_LOOP('',(${oriented.join(",")}))`);
        return add(`${i === 0 ? "FACE_OUTER_BOUND" : "FACE_BOUND"}('',${edgeLoop},.T.)`);
      });
      return add(`ADVANCED_FACE('',(${bounds.join(",")}),${plane},.T.)`);
    });
    const shell = add(`CLOSED_SHELL('',(${faceIds.join(",")}))`);
    breps.push(add(`MANIFOLD_SOLID_BREP('',${shell})`));
  }
  const header = [
    "ISO-10303-21;",
    "HEADER;",
    `FILE_DESCRIPTION(('${name}'),'2;1');`,
    `FILE_NAME('${name}.step','2026-11-24T00:00:00',('Forja'),('Forja'),'scripts/make-step.mjs','','');`,
    "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));",
    "ENDSEC;",
    "DATA;",
    ...UNITS[unit],
    "#2=(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.));",
    "#3=(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT());",
    `#4=UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-06),${lengthUnit},'distance_accuracy_value','confusion accuracy');`,
    `#5=(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#4))GLOBAL_UNIT_ASSIGNED_CONTEXT((${lengthUnit},#2,#3))REPRESENTATION_CONTEXT('Context #1','3D Context with UNIT and UNCERTAINTY'));`,
    "#6=APPLICATION_CONTEXT('automotive design');",
    "#7=APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#6);",
    `#8=PRODUCT('${name}','${name}','',(#9));`,
    "#9=PRODUCT_CONTEXT('',#6,'mechanical');",
    "#10=PRODUCT_DEFINITION_FORMATION('','',#8);",
    "#11=PRODUCT_DEFINITION('design','',#10,#12);",
    "#12=PRODUCT_DEFINITION_CONTEXT('part definition',#6,'design');",
    "#13=PRODUCT_DEFINITION_SHAPE('','',#11);",
    "#14=SHAPE_DEFINITION_REPRESENTATION(#13,#15);",
  ];
  const body = [`#15=ADVANCED_BREP_SHAPE_REPRESENTATION('',(${breps.join(",")}),#5);`];
  return [...header, ...body, ...lines, "ENDSEC;", "END-ISO-10303-21;", ""].join("\n");
}

/**
 * Blocks of 20 × 20 × 10 mm with a 10 mm through-hole (3 cm³ each), 100 to a row, as one STEP of
 * about `targetBytes` (within 1 %): entity numbers grow longer with the count, so a first guess is
 * corrected. For timing the geometry worker and for the benchmark.
 */
export function manyBlocksStep(targetBytes) {
  const blocks = (count) =>
    Array.from({ length: count }, (_, i) => {
      const solid = blockWithHole(20, 10, 10);
      const dx = (i % 100) * 25, dy = Math.floor(i / 100) * 25;
      solid.vertices = solid.vertices.map(([x, y, z]) => [x + dx, y + dy, z]);
      return solid;
    });
  let count = Math.ceil(targetBytes / (stepText(blocks(1)).length - stepText([]).length));
  let text = stepText(blocks(count), { name: "muchas-piezas" });
  for (let round = 0; round < 4 && Math.abs(text.length - targetBytes) > targetBytes / 100; round++) {
    count = Math.max(1, Math.round((count * targetBytes) / text.length));
    text = stepText(blocks(count), { name: "muchas-piezas" });
  }
  return { text, count };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--large") {
    // Many blocks with a hole, side by side, until the file reaches the size asked for (MB).
    const targetBytes = Number(args[1]) * 1024 * 1024;
    const out = args[2];
    const { text, count } = manyBlocksStep(targetBytes);
    fs.writeFileSync(out, text);
    console.log(`${out}: ${count} solids, ${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MB`);
  } else {
    const dir = args[0] ?? "tests/fixtures/cad";
    fs.writeFileSync(path.join(dir, "cube-10mm.step"), stepText([box([0, 0, 0], [10, 10, 10])], { name: "cubo-10mm" }));
    fs.writeFileSync(path.join(dir, "cube-1in.step"), stepText([box([0, 0, 0], [1, 1, 1])], { name: "cubo-1in", unit: "in" }));
    fs.writeFileSync(path.join(dir, "block-with-hole.step"), stepText([blockWithHole(20, 10, 10)], { name: "bloque-con-agujero" }));
  }
}
