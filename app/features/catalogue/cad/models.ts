// Parametric CAD models of catalogue parts (issue 12 §1), built with replicad on OpenCascade. Each
// model is a pure function of its parameters (millimetres, Z up, the part standing on the XY plane),
// so the same parameters always give the same solid and the results are cached by them
// (docs/decisions/0025). The kernel is passed in: this module never loads it.
import type * as Replicad from "replicad";
import type { PartFinish } from "./finishes";

export type { PartFinish };

type R = typeof Replicad;
type Solid = Replicad.Shape3D;

export type PartSpec =
  | { kind: "escuadra"; leg: number; width: number; thickness: number; hole: number }
  | { kind: "soporte-l"; length: number; width: number; height: number; thickness: number; slot: { width: number; length: number }; hole: number }
  | { kind: "brida"; outside: number; thickness: number; boltCircle: number; holes: number; hole: number; raisedFace: { diameter: number; height: number }; bore?: number; hub?: { diameter: number; height: number } }
  | { kind: "buje"; inside: number; outside: number; length: number; chamfer: number; flange?: { diameter: number; thickness: number } }
  | { kind: "gabinete"; height: number; width: number; depth: number; sheet: number }
  | { kind: "placa"; length: number; width: number; thickness: number; pitch: number; gridHole: number; cornerHole: number; cornerInset: number }
  | { kind: "tornillo"; diameter: number; length: number; head: { diameter: number; height: number }; socket: number }
  | { kind: "rueda"; outside: number; width: number; bore: number; bearing: { outside: number; width: number } }
  | { kind: "solera"; length: number; width: number; thickness: number }
  | { kind: "soporte-sensor"; sensor: number; adjust: number; mountHole: number; thickness: number }
  | { kind: "panel"; length: number; width: number; thickness: number; hole: number; inset: number }
  | {
      kind: "dispositivo";
      length: number;
      width: number;
      thickness: number;
      /** Four holes to bolt the base down, `inset` from the corners. */
      mountHole: number;
      inset: number;
      /** Rest pads (flat-topped cylinders) and locating pins (with a conical lead-in), by centre on the base. */
      pad: { diameter: number; height: number; at: Array<[number, number]> };
      pin: { diameter: number; height: number; at: Array<[number, number]> };
      /** Locating blocks standing on the base, by the centre of their footprint. */
      blocks?: Array<{ at: [number, number]; length: number; width: number; height: number }>;
    }
  | { kind: "estrella"; outside: number; thickness: number; pockets: number; pocket: number; bore: number; hub?: { diameter: number; height: number }; bolts?: { count: number; circle: number; hole: number } }
  | { kind: "barra"; length: number; width: number; thickness: number; offset: number; hole: number; holesPerEnd: number; pitch: number }
  | { kind: "mango"; length: number; butt: number; grip: number; waist: number; neck: number; bore: { diameter: number; depth: number } }
  | { kind: "celosia"; length: number; width: number; sheet: number; flange: number; slot: { width: number; length: number }; rows: number; columns: number; margin: number };

/** A part as the catalogue knows it: what to build, what it is made of, and what its drawing says. */
export interface PartModel {
  spec: PartSpec;
  finish: PartFinish;
  /** For the title block, e.g. "Acero ASTM A105". */
  material: string;
  /** Callouts written on the drawing. */
  notes: string[];
}

const mm = (value: number) => new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2, useGrouping: false }).format(value);

/** Circles of diameter `d` at the given centres, as one 2D drawing (to cut from a profile at once). */
/** `outline` with round holes of diameter `d` at the given centres (cut one by one: a fused set of disjoint circles does not cut cleanly). */
function withHoles(r: R, outline: Replicad.Drawing, d: number, centres: Array<[number, number]>): Replicad.Drawing {
  let result = outline;
  for (const [x, y] of centres) result = result.cut(r.drawCircle(d / 2).translate(x, y));
  return result;
}

/** A profile drawn in the XZ plane (x → X, y → Z), extruded `depth` along Y and centred on y = 0. */
function acrossY(profile: Replicad.Drawing, depth: number, centre = 0): Solid {
  return profile.sketchOnPlane("XZ", [0, centre + depth / 2, 0]).extrude(depth) as Solid;
}

function boltCircle(count: number, diameter: number, startDeg = 45): Array<[number, number]> {
  return Array.from({ length: count }, (_, index) => {
    const angle = ((startDeg + (360 / count) * index) * Math.PI) / 180;
    return [(diameter / 2) * Math.cos(angle), (diameter / 2) * Math.sin(angle)] as [number, number];
  });
}

/** A closed profile in the XZ plane (x = radius, z = height) revolved about Z. */
function revolveProfile(r: R, points: Array<[number, number]>): Solid {
  const [first, ...rest] = points;
  let pen = r.draw(first);
  for (const point of rest) pen = pen.lineTo(point);
  return pen.close().sketchOnPlane("XZ").revolve([0, 0, 1]) as Solid;
}

/** A plate lying on XY from its outline with holes, `thickness` thick. */
function plate(r: R, outline: Replicad.Drawing, thickness: number, z = 0): Solid {
  return outline.sketchOnPlane("XY", z).extrude(thickness) as Solid;
}

export function buildPart(r: R, spec: PartSpec): Solid {
  switch (spec.kind) {
    case "escuadra": {
      const { leg, width, thickness: t, hole } = spec;
      // The L profile in XZ (with an inside bend radius), extruded across Y.
      const profile = r
        .draw([0, 0])
        .hLine(leg)
        .vLine(t)
        .hLine(-(leg - 2 * t))
        .customCorner(t)
        .lineTo([t, 2 * t])
        .vLine(leg - 2 * t)
        .hLine(-t)
        .close();
      let body = acrossY(profile, width);
      // The rib in the middle keeps the angle closed under load.
      const ribSize = leg * 0.55;
      const rib = acrossY(r.draw([t, t]).hLine(ribSize).lineTo([t, t + ribSize]).close(), t);
      body = body.fuse(rib);
      const spread = width * 0.28;
      const along = leg * 0.72;
      for (const y of [-spread, spread]) {
        body = body.cut(r.makeCylinder(hole / 2, t * 3, [along, y, -t], [0, 0, 1]));
        body = body.cut(r.makeCylinder(hole / 2, t * 3, [-t, y, along], [1, 0, 0]));
      }
      return body;
    }
    case "soporte-l": {
      const { length, width, height, thickness: t, slot, hole } = spec;
      const slots: Replicad.Drawing[] = [];
      for (const x of [length * 0.56, length * 0.82]) for (const y of [-width * 0.29, width * 0.29]) slots.push(r.drawRoundedRectangle(slot.length, slot.width, slot.width / 2 - 0.01).translate(x, y));
      let baseOutline = r.drawRectangle(length, width).translate(length / 2, 0);
      for (const cut of slots) baseOutline = baseOutline.cut(cut);
      const base = plate(r, baseOutline, t);
      const centre = height * 0.6;
      const square = width * 0.34;
      let faceOutline = r.drawRectangle(width, height - t).translate(0, t + (height - t) / 2);
      faceOutline = faceOutline.cut(r.drawCircle(width / 6).translate(0, centre));
      faceOutline = withHoles(r, faceOutline, hole, [[-square, centre - square], [square, centre - square], [-square, centre + square], [square, centre + square]]);
      const face = faceOutline.sketchOnPlane("YZ").extrude(t) as Solid;
      return base.fuse(face);
    }
    case "brida": {
      const { outside, thickness, boltCircle: pcd, holes, hole, raisedFace, bore, hub } = spec;
      const top = raisedFace.height + thickness;
      const outline: Array<[number, number]> = [
        [bore ? bore / 2 : 0, 0],
        [raisedFace.diameter / 2, 0],
        [raisedFace.diameter / 2, raisedFace.height],
        [outside / 2, raisedFace.height],
        [outside / 2, top],
      ];
      if (hub) outline.push([hub.diameter / 2, top], [hub.diameter / 2 - 2, top + hub.height], [bore ? bore / 2 : 0, top + hub.height]);
      else outline.push([bore ? bore / 2 : 0, top]);
      let body = revolveProfile(r, outline);
      for (const [x, y] of boltCircle(holes, pcd)) body = body.cut(r.makeCylinder(hole / 2, top * 2, [x, y, -1], [0, 0, 1]));
      return body;
    }
    case "buje": {
      const { inside, outside, length, chamfer: c, flange } = spec;
      const ri = inside / 2;
      const ro = outside / 2;
      const points: Array<[number, number]> = [[ri + c, 0]];
      if (flange) {
        const rf = flange.diameter / 2;
        points.push([rf - c, 0], [rf, c], [rf, flange.thickness], [ro, flange.thickness], [ro, length - c], [ro - c, length]);
      } else points.push([ro - c, 0], [ro, c], [ro, length - c], [ro - c, length]);
      points.push([ri + c, length], [ri, length - c], [ri, c]);
      return revolveProfile(r, points);
    }
    case "gabinete": {
      const { height, width, depth, sheet } = spec;
      // The body: a box open at the front, then its door a hair in front of it, with a handle.
      const body = (r.makeBaseBox(width, depth, height) as Solid).shell(sheet, (face) => face.inPlane("XZ", [0, -depth / 2, 0]));
      const gap = 2;
      const front = -depth / 2 - 0.5;
      const door = r.makeBox([-width / 2 + gap, front - sheet, gap], [width / 2 - gap, front, height - gap]);
      const handle = r.makeCylinder(12, 14, [width / 2 - 40, front - sheet, height * 0.55], [0, -1, 0]);
      return body.fuse(door).fuse(handle);
    }
    case "placa": {
      const { length, width, thickness, pitch, gridHole, cornerHole, cornerInset } = spec;
      const centres: Array<[number, number]> = [];
      for (let x = pitch; x < length - pitch / 2; x += pitch) for (let y = pitch; y < width - pitch / 2; y += pitch) centres.push([x - length / 2, y - width / 2]);
      const corners: Array<[number, number]> = [
        [-length / 2 + cornerInset, -width / 2 + cornerInset],
        [length / 2 - cornerInset, -width / 2 + cornerInset],
        [-length / 2 + cornerInset, width / 2 - cornerInset],
        [length / 2 - cornerInset, width / 2 - cornerInset],
      ];
      const outline = withHoles(r, withHoles(r, r.drawRoundedRectangle(length, width, 3), gridHole, centres), cornerHole, corners);
      return plate(r, outline, thickness);
    }
    case "tornillo": {
      const { diameter, length, head, socket } = spec;
      const c = diameter * 0.08;
      const shank = revolveProfile(r, [
        [0, -length],
        [diameter / 2 - c, -length],
        [diameter / 2, -length + c],
        [diameter / 2, 0.01],
        [0, 0.01],
      ]);
      const cap = revolveProfile(r, [
        [0, 0],
        [head.diameter / 2, 0],
        [head.diameter / 2, head.height - 0.5],
        [head.diameter / 2 - 0.5, head.height],
        [0, head.height],
      ]);
      const hex = r.drawPolysides(socket / Math.sqrt(3), 6).sketchOnPlane("XY", head.height - socket * 0.6).extrude(socket) as Solid;
      return shank.fuse(cap).cut(hex).translate([0, 0, length]);
    }
    case "rueda": {
      const { outside, width, bore, bearing } = spec;
      const ro = outside / 2;
      const round = Math.min(6, width / 6);
      const recess = 4;
      const rb = bearing.outside / 2;
      const hubR = rb + 6;
      const tread = revolveProfile(r, [
        [bore / 2 + 1, bearing.width],
        [rb, bearing.width],
        [rb, 0],
        [hubR, 0],
        [hubR, recess],
        [ro - round - 8, recess],
        [ro - round, 0],
        [ro - round * 0.3, round * 0.3],
        [ro, round],
        [ro, width - round],
        [ro - round * 0.3, width - round * 0.3],
        [ro - round, width],
        [ro - round - 8, width - recess],
        [hubR, width - recess],
        [hubR, width],
        [rb, width],
        [rb, width - bearing.width],
        [bore / 2 + 1, width - bearing.width],
      ]);
      return tread;
    }
    case "solera": {
      const { length, width, thickness } = spec;
      return plate(r, r.drawRoundedRectangle(length, width, 1), thickness);
    }
    case "soporte-sensor": {
      const { sensor, adjust, mountHole, thickness: t } = spec;
      const width = sensor + 16;
      const baseLength = width + 40;
      const baseOutline = withHoles(r, r.drawRoundedRectangle(baseLength, width, 4), mountHole, [[-baseLength / 2 + 10, 0], [baseLength / 2 - 10, 0]]);
      const base = plate(r, baseOutline, t);
      const slotLength = sensor + 2 * adjust;
      const uprightHeight = slotLength + 20 + t;
      const slotCentre = t + 10 + slotLength / 2;
      const upright = acrossY(
        r
          .drawRectangle(width, uprightHeight)
          .translate(0, uprightHeight / 2)
          .cut(r.drawRoundedRectangle(sensor + 0.5, slotLength, (sensor + 0.5) / 2 - 0.01).translate(0, slotCentre)),
        t,
      );
      // Side guards: two ribs that take a sideways knock instead of the sensor.
      const rib = (x: number) =>
        r
          .draw([0, t])
          .hLine(-22)
          .lineTo([0, uprightHeight * 0.7])
          .close()
          .sketchOnPlane("YZ", x)
          .extrude(t * 0.8) as Solid;
      return base.fuse(upright).fuse(rib(-width / 2)).fuse(rib(width / 2 - t * 0.8));
    }
    case "panel": {
      const { length, width, thickness, hole, inset } = spec;
      const x = length / 2 - inset;
      const y = width / 2 - inset;
      const outline = withHoles(r, r.drawRoundedRectangle(length, width, 2), hole, [
          [-x, -y],
          [0, -y],
          [x, -y],
          [-x, y],
          [0, y],
          [x, y],
          [-x, 0],
        [x, 0],
      ]);
      return plate(r, outline, thickness);
    }
    case "dispositivo": {
      const { length, width, thickness: t, mountHole, inset, pad, pin, blocks = [] } = spec;
      const x = length / 2 - inset;
      const y = width / 2 - inset;
      let body = plate(r, withHoles(r, r.drawRoundedRectangle(length, width, 4), mountHole, [[-x, -y], [x, -y], [-x, y], [x, y]]), t);
      // Everything standing on the base starts a hair inside it, so the fuse is one solid.
      const sink = 0.01;
      for (const [px, py] of pad.at) body = body.fuse(r.makeCylinder(pad.diameter / 2, pad.height + sink, [px, py, t - sink], [0, 0, 1]));
      const lead = pin.diameter * 0.3;
      for (const [px, py] of pin.at) {
        const shape = revolveProfile(r, [
          [0, -sink],
          [pin.diameter / 2, -sink],
          [pin.diameter / 2, pin.height - lead],
          [pin.diameter * 0.3, pin.height],
          [0, pin.height],
        ]);
        body = body.fuse(shape.translate([px, py, t]));
      }
      for (const block of blocks) {
        const [bx, by] = block.at;
        body = body.fuse(r.makeBox([bx - block.length / 2, by - block.width / 2, t - sink], [bx + block.length / 2, by + block.width / 2, t + block.height]));
      }
      return body;
    }
    case "estrella": {
      const { outside, thickness, pockets, pocket, bore, hub, bolts } = spec;
      // Bottle pockets are half circles centred on the rim.
      let outline = r.drawCircle(outside / 2);
      for (let index = 0; index < pockets; index++) {
        const angle = (2 * Math.PI * index) / pockets;
        outline = outline.cut(r.drawCircle(pocket / 2).translate((outside / 2) * Math.cos(angle), (outside / 2) * Math.sin(angle)));
      }
      outline = outline.cut(r.drawCircle(bore / 2));
      if (bolts) outline = withHoles(r, outline, bolts.hole, boltCircle(bolts.count, bolts.circle, 0));
      let body = plate(r, outline, thickness);
      if (hub) {
        const ring = r.drawCircle(hub.diameter / 2).cut(r.drawCircle(bore / 2));
        body = body.fuse(plate(r, ring, hub.height + 0.01, thickness - 0.01));
      }
      return body;
    }
    case "barra": {
      const { length, width, thickness: t, offset, hole, holesPerEnd, pitch } = spec;
      let body: Solid;
      if (offset > 0) {
        // A joggle at 45° in the middle: the two flat ends sit `offset` apart in height, the bar keeps
        // its thickness through the bend.
        const a = (length - offset) / 2;
        const e = t * Math.tan(Math.PI / 8);
        const profile = r
          .draw([0, 0])
          .lineTo([a, 0])
          .lineTo([a + offset, offset])
          .lineTo([length, offset])
          .lineTo([length, offset + t])
          .lineTo([a + offset - e, offset + t])
          .lineTo([a - e, t])
          .lineTo([0, t])
          .close();
        body = acrossY(profile, width);
      } else body = r.makeBox([0, -width / 2, 0], [length, width / 2, t]);
      const first = width / 2 + hole / 2;
      for (let index = 0; index < holesPerEnd; index++) {
        const along = first + index * pitch;
        body = body.cut(r.makeCylinder(hole / 2, t + offset + 2, [along, 0, -1], [0, 0, 1]));
        body = body.cut(r.makeCylinder(hole / 2, t + offset + 2, [length - along, 0, -1], [0, 0, 1]));
      }
      return body;
    }
    case "mango": {
      const { length: l, butt, grip, waist, neck, bore } = spec;
      // One smooth profile (tangent splines: no seams on the surface), revolved; the front end takes
      // the insert in a blind bore.
      const c = Math.min(1, butt / 10);
      const profile = r
        .draw([0, 0])
        .lineTo([butt / 2 - c, 0])
        .lineTo([butt / 2, c])
        .smoothSplineTo([grip / 2, l * 0.32], { endTangent: [0, 1] })
        .smoothSplineTo([waist / 2, l * 0.68], { endTangent: [0, 1] })
        .smoothSplineTo([neck / 2, l], { endTangent: [-0.15, 1] })
        .lineTo([bore.diameter / 2, l])
        .lineTo([bore.diameter / 2, l - bore.depth])
        .lineTo([0, l - bore.depth])
        .close();
      return profile.sketchOnPlane("XZ").revolve([0, 0, 1]) as Solid;
    }
    case "celosia": {
      const { length, width, sheet, flange, slot, rows, columns, margin } = spec;
      // The face lies on XY with its return flange standing up around the edge (the back of the
      // panel). The slots grow and shrink across the panel: the pattern is the architect's, the
      // rule here is a wave, one parameter set per panel.
      const spanX = length - 2 * margin;
      const spanY = width - 2 * margin;
      const stepX = spanX / columns;
      const stepY = spanY / rows;
      let outline = r.drawRoundedRectangle(length, width, 2);
      for (let column = 0; column < columns; column++) {
        for (let row = 0; row < rows; row++) {
          const wave = 0.5 + 0.5 * Math.sin(((column + 0.5) / columns) * Math.PI * 2 + ((row + 0.5) / rows) * Math.PI);
          const slotLength = Math.min(stepY - 4, slot.length * (0.45 + 0.55 * wave));
          const cx = -spanX / 2 + stepX * (column + 0.5);
          const cy = -spanY / 2 + stepY * (row + 0.5);
          outline = outline.cut(r.drawRoundedRectangle(slot.width, slotLength, slot.width / 2 - 0.01).translate(cx, cy));
        }
      }
      const face = plate(r, outline, sheet);
      const ring = r.drawRoundedRectangle(length, width, 2).cut(r.drawRectangle(length - 2 * sheet, width - 2 * sheet));
      return face.fuse(plate(r, ring, flange - sheet + 0.01, sheet - 0.01));
    }
  }
}

export { mm as formatMm };
