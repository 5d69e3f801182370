// The 3D viewer's scene: three.js, loaded only when someone opens a viewer (PartViewer imports this
// module with `import()`, so Vite makes it and three.js a chunk of their own). Renders on demand —
// after a control moves the camera or a toggle changes — never in a permanent animation loop.
import {
  BackSide,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  EdgesGeometry,
  FrontSide,
  HemisphereLight,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  Object3D,
  PerspectiveCamera,
  Plane,
  Scene,
  Vector3,
  WebGLRenderer,
} from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { fitDistance, ISO_DIRECTION, orbitOffset, sectionPlane, zoomOffset, type Vec3 } from "./view-math";
import { meshBounds, type ViewerMesh } from "./viewer-mesh";

// House colours (app/app.css): steel greys, the forge's orange for the inside of a section.
const BACKGROUND = "#f5f7f9"; // acero-50
const PART = "#a5b3c2"; // acero-300
const EDGES = "#4a5a6c"; // acero-600
const INSIDE = "#c2410c"; // forja-600
/** Edges between faces meeting at more than this angle are drawn: a machined part's outlines, not its tessellation. */
const EDGE_THRESHOLD_DEG = 25;
/**
 * three.js finds edges by hashing every vertex on the main thread (measured: 5.3 s for 300 000
 * triangles on a busy shared core): past this many triangles the shading alone must do.
 */
const EDGES_MAX_TRIANGLES = 100_000;
const FOV_DEG = 35;
const STEP_RAD = Math.PI / 12; // 15° per arrow key
const ZOOM_STEP = 0.8;

export interface PartScene {
  /** Centres the part and moves the camera back until all of it is in view, keeping the direction. */
  fit(): void;
  setWireframe(on: boolean): void;
  setSection(on: boolean): void;
  /** Turns the camera about the part (radians); positive polar goes lower. */
  orbit(dAzimuth: number, dPolar: number): void;
  /** Below 1 brings the camera closer. */
  zoom(factor: number): void;
  dispose(): void;
}

/** The WebGL context could not be created (no WebGL, blocked, or the GPU process is gone). */
export class WebGlUnavailableError extends Error {
  constructor(cause: unknown) {
    super("WebGL no disponible", { cause });
    this.name = "WebGlUnavailableError";
  }
}

function geometryOf(mesh: ViewerMesh): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(mesh.positions, 3));
  if (mesh.indices) geometry.setIndex(new BufferAttribute(mesh.indices, 1));
  // A kernel gives each face its own vertices, so smooth normals stay within a face; an STL (no
  // index) gets one normal per triangle. Both read as the machined part they are.
  if (mesh.normals && mesh.normals.length === mesh.positions.length) geometry.setAttribute("normal", new BufferAttribute(mesh.normals, 3));
  else geometry.computeVertexNormals();
  return geometry;
}

export function createPartScene(canvas: HTMLCanvasElement, mesh: ViewerMesh): PartScene {
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: true, powerPreference: "low-power" });
  } catch (error) {
    throw new WebGlUnavailableError(error);
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setClearColor(new Color(BACKGROUND), 1);
  renderer.localClippingEnabled = true;

  const bounds = meshBounds(mesh);
  const center = new Vector3(...bounds.center);
  const radius = bounds.radius;

  const scene = new Scene();
  const camera = new PerspectiveCamera(FOV_DEG, 1, radius / 100, radius * 100);
  camera.up.set(0, 0, 1);
  scene.add(camera);
  // Neutral light: sky and ground for the overall shade, and a lamp over the viewer's shoulder that
  // turns with the camera, so every side the person looks at is lit the same way.
  scene.add(new HemisphereLight(0xffffff, 0x9aa6b2, 2.2));
  const lamp = new DirectionalLight(0xffffff, 1.6);
  lamp.position.set(-0.4, 0.6, 0);
  const lampTarget = new Object3D();
  lampTarget.position.set(0, 0, -1);
  camera.add(lamp, lampTarget);
  lamp.target = lampTarget;

  const geometry = geometryOf(mesh);
  const plane = sectionPlane(bounds.center);
  const clipping = [new Plane(new Vector3(...plane.normal), plane.constant)];
  // polygonOffset pushes the faces back a little so the edges drawn on them are never half hidden.
  const solidMaterial = new MeshStandardMaterial({ color: PART, metalness: 0.15, roughness: 0.6, side: FrontSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  // Seen through the cut, the inside of the part is its back faces: drawn flat in orange, they read as the section.
  const insideMaterial = new MeshBasicMaterial({ color: INSIDE, side: BackSide });
  const edgeMaterial = new LineBasicMaterial({ color: EDGES });
  const solid = new Mesh(geometry, solidMaterial);
  const inside = new Mesh(geometry, insideMaterial);
  inside.visible = false;
  const triangles = (mesh.indices?.length ?? mesh.positions.length / 3) / 3;
  const edgesGeometry = triangles <= EDGES_MAX_TRIANGLES ? new EdgesGeometry(geometry, EDGE_THRESHOLD_DEG) : new BufferGeometry();
  const edges = new LineSegments(edgesGeometry, edgeMaterial);
  scene.add(solid, inside, edges);

  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false; // damping needs a frame loop; this viewer draws only on change
  controls.screenSpacePanning = true;
  controls.minDistance = radius * 0.2;
  controls.maxDistance = radius * 30;

  let frame = 0;
  const draw = () => {
    frame = 0;
    renderer.render(scene, camera);
  };
  const requestRender = () => {
    if (!frame) frame = requestAnimationFrame(draw);
  };
  controls.addEventListener("change", requestRender);

  let wireframe = false;
  let section = false;

  const place = (offset: Vec3) => {
    camera.position.set(controls.target.x + offset[0], controls.target.y + offset[1], controls.target.z + offset[2]);
    controls.update();
    requestRender();
  };
  const currentOffset = (): Vec3 => [camera.position.x - controls.target.x, camera.position.y - controls.target.y, camera.position.z - controls.target.z];

  const fit = () => {
    const offset = currentOffset();
    const length = Math.hypot(...offset);
    const direction: Vec3 = length > 0 ? [offset[0] / length, offset[1] / length, offset[2] / length] : ISO_DIRECTION;
    const distance = fitDistance(radius, FOV_DEG, camera.aspect);
    controls.target.copy(center);
    place([direction[0] * distance, direction[1] * distance, direction[2] * distance]);
  };

  const resize = () => {
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (width === 0 || height === 0) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    requestRender();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);

  const onKey = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => api.orbit(-STEP_RAD, 0),
      ArrowRight: () => api.orbit(STEP_RAD, 0),
      ArrowUp: () => api.orbit(0, -STEP_RAD),
      ArrowDown: () => api.orbit(0, STEP_RAD),
      "+": () => api.zoom(ZOOM_STEP),
      "=": () => api.zoom(ZOOM_STEP),
      "-": () => api.zoom(1 / ZOOM_STEP),
      _: () => api.zoom(1 / ZOOM_STEP),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault(); // arrows would scroll the page
    action();
  };
  canvas.addEventListener("keydown", onKey);

  const api: PartScene = {
    fit,
    setWireframe(on) {
      wireframe = on;
      solidMaterial.wireframe = on;
      inside.visible = section && !on;
      requestRender();
    },
    setSection(on) {
      section = on;
      for (const material of [solidMaterial, insideMaterial, edgeMaterial]) material.clippingPlanes = on ? clipping : [];
      inside.visible = on && !wireframe;
      requestRender();
    },
    orbit(dAzimuth, dPolar) {
      place(orbitOffset(currentOffset(), dAzimuth, dPolar));
    },
    zoom(factor) {
      place(zoomOffset(currentOffset(), factor, controls.minDistance, controls.maxDistance));
    },
    dispose() {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      observer.disconnect();
      canvas.removeEventListener("keydown", onKey);
      controls.removeEventListener("change", requestRender);
      controls.dispose();
      geometry.dispose();
      edgesGeometry.dispose();
      solidMaterial.dispose();
      insideMaterial.dispose();
      edgeMaterial.dispose();
      renderer.dispose();
      // Browsers allow only a few live WebGL contexts per page: give this one back now.
      renderer.forceContextLoss();
    },
  };

  // The first view: isometric, the whole part in frame.
  resize();
  controls.target.copy(center);
  camera.position.set(center.x + ISO_DIRECTION[0], center.y + ISO_DIRECTION[1], center.z + ISO_DIRECTION[2]);
  fit();
  return api;
}
