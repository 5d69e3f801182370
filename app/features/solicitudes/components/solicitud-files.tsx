import { useCallback } from "react";
import { PartViewer, type PartViewerSource } from "~/components/part-viewer/part-viewer";
import { formatFileSize, formatMoney, formatNumber, shortFileName, visibleFileName } from "~/lib/format";
import { loadCadMesh, workerFormat } from "../cad-reader";
import { UNIT_NAMES } from "../cad-units";
import type { StlMeasurement } from "../estimate";
import { SERVICE_OPTIONS } from "../forms";
import { optionLabel, SolicitudField, SolicitudPanel } from "./solicitud-panel";

// The files of a solicitud, each to download, and the instant estimate the server kept for each
// STL among them (indicative; the formal quote is the team's). Under each CAD file, the volume, area
// and box the server measured from the stored file in its geometry job, or why there are none, and a
// 3D view of the part (STL drawn from the file; STEP, IGES, OBJ and 3MF read in the browser by the same
// CAD worker /cotiza uses, from the file's download URL, once the person opens the view).

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

const decimal = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });
const volume = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });

/** The form's unit names (3MF's micrómetros included); a unit stored by an older version falls back to its code. */
const unitNames: Partial<Record<string, string>> = UNIT_NAMES;

/** What the server measured from a stored CAD file, or why it did not (geometry.server.ts). */
export interface FileGeometryView {
  geometryStatus: "pending" | "computing" | "ok" | "unreadable" | "over-budget" | "not-cad";
  geometry: { volumeMm3: number; areaMm2: number; bbox: { x: number; y: number; z: number }; triangles: number; closed: boolean; unit: string | null } | null;
  geometryReason: string | null;
}

export interface SolicitudFilesProps {
  solicitudId: string;
  files: ({ id: string; originalName: string; kind: string; size: number } & Partial<FileGeometryView>)[];
}

/** The server's figures for one file: volume, area and box, "Calculando…" while pending, or the reason there are none. */
export function FileGeometry({ geometryStatus, geometry, geometryReason }: FileGeometryView) {
  if (geometryStatus === "not-cad") return null;
  if (geometryStatus === "pending" || geometryStatus === "computing") {
    return (
      <p className="mt-1 text-sm text-acero-600" data-geometry="pending">
        Calculando…
      </p>
    );
  }
  if (geometryStatus !== "ok" || !geometry) {
    return (
      <p className="mt-1 text-sm text-acero-700" data-geometry={geometryStatus}>
        Sin estimación: {geometryReason ?? "No pudimos leer la geometría de este archivo."}
      </p>
    );
  }
  return (
    <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2" data-geometry="ok">
      <SolicitudField label="Volumen">{volume.format(geometry.volumeMm3 / 1000)} cm³</SolicitudField>
      <SolicitudField label="Área de superficie">{volume.format(geometry.areaMm2 / 100)} cm²</SolicitudField>
      <SolicitudField label="Caja envolvente">
        {decimal.format(geometry.bbox.x)} × {decimal.format(geometry.bbox.y)} × {decimal.format(geometry.bbox.z)} mm
      </SolicitudField>
      <SolicitudField label="Unidades del archivo">
        {geometry.unit ? (unitNames[geometry.unit] ?? geometry.unit) : "No declaradas (se leen como milímetros)"}
        {geometry.closed ? null : <span className="block text-acero-600">La malla no está cerrada: el volumen es aproximado.</span>}
      </SolicitudField>
    </dl>
  );
}

/** "Ver en 3D" for a stored STEP, IGES, OBJ, 3MF or STL file; nothing for other kinds. */
function FileViewer({ url, file }: { url: string; file: SolicitudFilesProps["files"][number] }) {
  // The stored kind is detected by content (step, iges, obj, 3mf…), named like the extensions.
  const format = workerFormat(`.${file.kind}`);
  const load = useCallback((signal: AbortSignal) => loadCadMesh(url, format ?? "step", signal), [url, format]);
  if (file.kind !== "stl" && !format) return null;
  const source: PartViewerSource = file.kind === "stl" ? { kind: "stl", url } : { kind: "load", load };
  const box = file.geometryStatus === "ok" ? file.geometry?.bbox : undefined;
  const dimensions = box ? `${decimal.format(box.x)} × ${decimal.format(box.y)} × ${decimal.format(box.z)} mm` : undefined;
  return <PartViewer source={source} label={visibleFileName(file.originalName)} dimensions={dimensions} />;
}

/** How many characters of a file name a list shows; the whole name is in its title. */
const FILE_NAME_CHARS = 60;

/**
 * A customer's file name as data: without control or bidi characters (an RTL override fakes the
 * extension), shortened in the middle, the whole name in the title (React escapes both).
 */
function FileName({ name }: { name: string }) {
  return (
    <span className="font-medium break-all text-acero-900" title={visibleFileName(name)} data-file-name>
      {shortFileName(name, FILE_NAME_CHARS)}
    </span>
  );
}

export function SolicitudFiles({ solicitudId, files }: SolicitudFilesProps) {
  return (
    <SolicitudPanel title="Archivos" id="seccion-archivos">
      {files.length ? (
        <ul className="divide-y divide-acero-100">
          {files.map((file) => (
            <li key={file.id} className="py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <FileName name={file.originalName} />{" "}
                  <span className="text-sm text-acero-600">
                    ({file.kind.toUpperCase()}, {formatFileSize(file.size)})
                  </span>
                </span>
                <a href={`/admin/formularios/${solicitudId}/archivos/${file.id}`} className={`${linkClass} text-sm`} download={visibleFileName(file.originalName)}>
                  Descargar<span className="sr-only"> {visibleFileName(file.originalName)}</span>
                </a>
              </div>
              {file.geometryStatus ? (
                <FileGeometry geometryStatus={file.geometryStatus} geometry={file.geometry ?? null} geometryReason={file.geometryReason ?? null} />
              ) : null}
              <FileViewer url={`/admin/formularios/${solicitudId}/archivos/${file.id}`} file={file} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-acero-700">No adjuntó archivos.</p>
      )}
    </SolicitudPanel>
  );
}

/** One stored estimate: the measurement of an STL and, when its service has a price rule, the range. */
export interface StoredEstimate extends StlMeasurement {
  fileId: string;
  fileName: string;
  price?: { service: string; minCentavos: number; maxCentavos: number };
}

export function SolicitudEstimates({ estimates }: { estimates: StoredEstimate[] }) {
  return (
    <SolicitudPanel title="Estimación instantánea" id="seccion-estimacion">
      <p className="text-sm text-acero-700">
        Calculada por el servidor a partir del archivo STL guardado. Es indicativa: la cotización formal la prepara el equipo.
      </p>
      <ul className="mt-3 space-y-3">
        {estimates.map((estimate) => (
          <li key={estimate.fileId} className="rounded-md border border-acero-200 p-3">
            <p>
              <FileName name={estimate.fileName} />
            </p>
            <dl className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
              <SolicitudField label="Volumen">{volume.format(estimate.volumeMm3 / 1000)} cm³</SolicitudField>
              <SolicitudField label="Caja envolvente">
                {decimal.format(estimate.bbox.x)} × {decimal.format(estimate.bbox.y)} × {decimal.format(estimate.bbox.z)} mm
              </SolicitudField>
              <SolicitudField label="Malla">
                {estimate.closed
                  ? `Cerrada (${formatNumber(estimate.triangles)} triángulos)`
                  : `No está cerrada (${formatNumber(estimate.triangles)} triángulos): el volumen es aproximado`}
              </SolicitudField>
              <SolicitudField label="Precio indicativo">
                {estimate.price ? (
                  <>
                    {formatMoney(estimate.price.minCentavos)} – {formatMoney(estimate.price.maxCentavos)} MXN, IVA incluido
                    <span className="block text-acero-600">{optionLabel(SERVICE_OPTIONS, estimate.price.service)}</span>
                  </>
                ) : (
                  "Sin regla de precio para el servicio elegido"
                )}
              </SolicitudField>
            </dl>
          </li>
        ))}
      </ul>
    </SolicitudPanel>
  );
}
