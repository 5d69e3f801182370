import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/lib/app-shell/use-hydrated";
import type { PartScene } from "./scene";
import { meshFromStl, type ViewerMesh } from "./viewer-mesh";

// An interactive 3D view of one part. Closed, it is a button: three.js is not loaded until someone
// presses it (the scene module is imported on demand and is a chunk of its own). Without WebGL the
// fallback (e.g. the technical drawing) stays and a note says why there is no 3D view.

export type PartViewerSource =
  /** A mesh already in memory (a kernel's tessellation, or an STL read in the browser). */
  | { kind: "mesh"; mesh: ViewerMesh }
  /** A binary or ASCII STL file on this site, fetched when the viewer opens. */
  | { kind: "stl"; url: string }
  /** Any other way to get the mesh, started when the viewer opens (e.g. a STEP file read by a CAD worker). */
  | { kind: "load"; load: (signal: AbortSignal) => Promise<ViewerMesh> };

export interface PartViewerProps {
  source: PartViewerSource;
  /** The part's name: the accessible name of the view. */
  label: string;
  /** Overall size as text, e.g. "10 × 10 × 10 mm", shown under the view. */
  dimensions?: string;
  /** Shown before the view opens and when the browser cannot draw it. */
  children?: ReactNode;
}

type Phase = "cerrado" | "cargando" | "abierto" | "sin-webgl" | "error";

export const NO_WEBGL_NOTE = "Su navegador no puede mostrar la vista 3D; consulte el dibujo.";
const NO_WEBGL_NOTE_ALONE = "Su navegador no puede mostrar la vista 3D.";
export const LOAD_FAILED_NOTE = "No pudimos mostrar este archivo en 3D. Puede descargarlo y abrirlo en su programa de CAD.";

async function fetchStl(url: string, signal: AbortSignal): Promise<ViewerMesh> {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return meshFromStl(await response.arrayBuffer());
}

function loadMesh(source: PartViewerSource, signal: AbortSignal): Promise<ViewerMesh> {
  if (source.kind === "mesh") return Promise.resolve(source.mesh);
  if (source.kind === "stl") return fetchStl(source.url, signal);
  return source.load(signal);
}

/** What identifies a source: a new object literal for the same mesh or URL must not rebuild the scene. */
const sourceIdentity = (source: PartViewerSource) => (source.kind === "mesh" ? source.mesh : source.kind === "stl" ? source.url : source.load);

const hasWebGl = () => typeof window !== "undefined" && "WebGL2RenderingContext" in window;

const toolClass =
  "inline-flex min-h-9 min-w-9 items-center justify-center rounded-md border border-acero-300 bg-white px-3 py-1.5 text-sm font-semibold text-acero-900 hover:bg-acero-50 aria-pressed:border-forja-600 aria-pressed:bg-forja-50 aria-pressed:text-forja-700";

export function PartViewer({ source, label, dimensions, children }: PartViewerProps) {
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<Phase>("cerrado");
  const [wireframe, setWireframe] = useState(false);
  const [section, setSection] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const sceneRef = useRef<PartScene | null>(null);
  const sourceRef = useRef(source);
  sourceRef.current = source;
  const returnFocus = useRef(false);
  const hintId = useId();
  const identity = sourceIdentity(source);
  const open = phase === "cargando" || phase === "abierto";

  useEffect(() => {
    if (!open) return;
    const canvas = canvasRef.current;
    if (!canvas) return;
    const controller = new AbortController();
    let scene: PartScene | null = null;
    Promise.all([import("./scene"), loadMesh(sourceRef.current, controller.signal)]).then(
      ([module, mesh]) => {
        if (controller.signal.aborted) return;
        try {
          scene = module.createPartScene(canvas, mesh);
        } catch (error) {
          setPhase(error instanceof module.WebGlUnavailableError ? "sin-webgl" : "error");
          return;
        }
        sceneRef.current = scene;
        setPhase("abierto");
        canvas.focus();
      },
      () => {
        if (!controller.signal.aborted) setPhase("error");
      },
    );
    return () => {
      controller.abort();
      scene?.dispose();
      sceneRef.current = null;
    };
    // The scene is built once per opening and source; the phase moving from "cargando" to "abierto" keeps it.
  }, [open, identity]);

  useEffect(() => {
    if (phase === "cerrado" && returnFocus.current) {
      returnFocus.current = false;
      openButton.current?.focus();
    }
  }, [phase]);

  const start = () => {
    setWireframe(false);
    setSection(false);
    setPhase(hasWebGl() ? "cargando" : "sin-webgl");
  };
  const close = () => {
    returnFocus.current = true;
    setPhase("cerrado");
  };
  const toggleWireframe = () => {
    const next = !wireframe;
    setWireframe(next);
    sceneRef.current?.setWireframe(next);
  };
  const toggleSection = () => {
    const next = !section;
    setSection(next);
    sceneRef.current?.setSection(next);
  };
  const ready = phase === "abierto";

  return (
    <div className="mt-3">
      {(phase === "cerrado" || phase === "error") && hydrated ? (
        <button ref={openButton} type="button" onClick={start} className={toolClass}>
          Ver en 3D<span className="sr-only"> {label}</span>
        </button>
      ) : null}
      {/* Without JavaScript the viewer cannot open: no button, only its place (nothing moves once it appears). */}
      {phase === "cerrado" && !hydrated ? (
        <span aria-hidden="true" className={`${toolClass} invisible`}>
          Ver en 3D
        </span>
      ) : null}
      {phase === "error" ? <p className="mt-2 text-sm text-acero-700">{LOAD_FAILED_NOTE}</p> : null}
      {phase === "sin-webgl" ? <p className="mt-2 text-sm text-acero-700">{children ? NO_WEBGL_NOTE : NO_WEBGL_NOTE_ALONE}</p> : null}
      {open ? (
        <figure className="rounded-md border border-acero-200 bg-white p-2">
          <div className="relative">
            <canvas
              ref={canvasRef}
              tabIndex={0}
              role="img"
              aria-label={`Modelo 3D de ${label}`}
              aria-describedby={hintId}
              className="block aspect-[4/3] max-h-[28rem] w-full cursor-grab touch-none rounded bg-acero-50 active:cursor-grabbing"
            />
            {ready ? null : (
              <p role="status" className="absolute inset-0 flex items-center justify-center text-sm text-acero-600">
                Cargando la vista 3D…
              </p>
            )}
          </div>
          <div role="group" aria-label="Controles de la vista 3D" className="mt-2 flex flex-wrap gap-2">
            <button type="button" className={toolClass} disabled={!ready} onClick={() => sceneRef.current?.zoom(0.8)} aria-label="Acercar">
              +
            </button>
            <button type="button" className={toolClass} disabled={!ready} onClick={() => sceneRef.current?.zoom(1.25)} aria-label="Alejar">
              −
            </button>
            <button type="button" className={toolClass} disabled={!ready} onClick={() => sceneRef.current?.fit()}>
              Encuadrar
            </button>
            <button type="button" className={toolClass} disabled={!ready} aria-pressed={wireframe} onClick={toggleWireframe}>
              Alambre
            </button>
            <button type="button" className={toolClass} disabled={!ready} aria-pressed={section} onClick={toggleSection}>
              Corte
            </button>
            <button type="button" className={toolClass} onClick={close}>
              Cerrar<span className="sr-only"> la vista 3D</span>
            </button>
          </div>
          <figcaption className="mt-2 text-sm text-acero-700">
            <span className="font-medium text-acero-900 break-all">{label}</span>
            {dimensions ? <> · {dimensions}</> : null}
          </figcaption>
          <p id={hintId} className="mt-1 text-xs text-acero-600">
            Arrastre para girar, use la rueda o pellizque para acercar y arrastre con el botón derecho para desplazar. Con el teclado: las flechas giran, + y − acercan o alejan.
          </p>
        </figure>
      ) : null}
      {phase === "abierto" || phase === "cargando" ? null : children}
    </div>
  );
}
