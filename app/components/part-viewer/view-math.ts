// Camera arithmetic of the 3D viewer, kept apart from three.js so it can be tested on its own.
// Z is up (as in the models); the camera orbits a target, at a distance, on a sphere.

export type Vec3 = [number, number, number];

/** Where the camera starts, seen from the target: front (−Y), right (+X) and above (+Z), an isometric view. */
export const ISO_DIRECTION: Vec3 = [1 / Math.sqrt(3), -1 / Math.sqrt(3), 1 / Math.sqrt(3)];

/** The polar angle stays this far from straight up or down, where the orbit would flip. */
const POLE_MARGIN = 0.01;

/**
 * Distance from the centre of a sphere of `radius` at which a perspective camera sees all of it, with
 * `margin` to spare: the narrower of the vertical field and the horizontal one (from the aspect) decides.
 */
export function fitDistance(radius: number, verticalFovDeg: number, aspect: number, margin = 1.15): number {
  const halfVertical = (verticalFovDeg * Math.PI) / 360;
  const halfHorizontal = Math.atan(Math.tan(halfVertical) * (aspect > 0 ? aspect : 1));
  const half = Math.min(halfVertical, halfHorizontal);
  return (radius * margin) / Math.sin(half);
}

/**
 * The camera's offset from the target after turning it by `dAzimuth` about the Z axis (positive:
 * the camera goes counter-clockwise seen from above) and `dPolar` away from +Z (positive: lower).
 * The distance is kept; the polar angle is held short of the poles.
 */
export function orbitOffset(offset: Vec3, dAzimuth: number, dPolar: number): Vec3 {
  const [x, y, z] = offset;
  const distance = Math.hypot(x, y, z);
  if (distance === 0) return [0, 0, 0];
  const azimuth = Math.atan2(y, x) + dAzimuth;
  const polar = Math.min(Math.PI - POLE_MARGIN, Math.max(POLE_MARGIN, Math.acos(Math.max(-1, Math.min(1, z / distance))) + dPolar));
  return [distance * Math.sin(polar) * Math.cos(azimuth), distance * Math.sin(polar) * Math.sin(azimuth), distance * Math.cos(polar)];
}

/** The offset scaled by `factor` (below 1: closer), its length kept within [min, max]. */
export function zoomOffset(offset: Vec3, factor: number, min: number, max: number): Vec3 {
  const distance = Math.hypot(...offset);
  if (distance === 0) return offset;
  const next = Math.min(max, Math.max(min, distance * factor));
  const scale = next / distance;
  return [offset[0] * scale, offset[1] * scale, offset[2] * scale];
}

/**
 * The section's clipping plane: through the part's centre, perpendicular to Y, keeping the back half
 * (y ≥ centre), so the cut faces a camera in front. As three.js writes planes: normal · p + constant ≥ 0 is kept.
 */
export function sectionPlane(center: Vec3): { normal: Vec3; constant: number } {
  return { normal: [0, 1, 0], constant: -center[1] };
}
