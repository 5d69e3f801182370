import { formatMoney, formatNumber } from "~/lib/format";
import type { StlMeasurement } from "../estimate";
import { SERVICE_OPTIONS } from "../forms";
import { optionLabel, SolicitudField, SolicitudPanel } from "./solicitud-panel";

// The files of a solicitud, each to download, and the instant estimate the server kept for each
// STL among them (indicative; the formal quote is the team's).

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

const decimal = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });
const volume = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  if (bytes < 1024 * 1024) return `${decimal.format(bytes / 1024)} KB`;
  return `${decimal.format(bytes / (1024 * 1024))} MB`;
}

export interface SolicitudFilesProps {
  solicitudId: string;
  files: { id: string; originalName: string; kind: string; size: number }[];
}

export function SolicitudFiles({ solicitudId, files }: SolicitudFilesProps) {
  return (
    <SolicitudPanel title="Archivos" id="seccion-archivos">
      {files.length ? (
        <ul className="divide-y divide-acero-100">
          {files.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium break-all text-acero-900">{file.originalName}</span>{" "}
                <span className="text-sm text-acero-600">
                  ({file.kind.toUpperCase()}, {formatBytes(file.size)})
                </span>
              </span>
              <a href={`/admin/formularios/${solicitudId}/archivos/${file.id}`} className={`${linkClass} text-sm`} download={file.originalName}>
                Descargar<span className="sr-only"> {file.originalName}</span>
              </a>
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
            <p className="font-medium break-all text-acero-900">{estimate.fileName}</p>
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
