import { formatCalendarDate, formatNumber } from "~/lib/format";
import { formatUnitQuantity } from "~/lib/units";
import { CERTIFICATE_OPTIONS, INDUSTRY_OPTIONS, SERVICE_OPTIONS, TOLERANCE_OPTIONS } from "../forms";
import { optionLabel, SolicitudField, SolicitudPanel } from "./solicitud-panel";
import type { SolicitudProjectFields } from "../types";

// What the person asked for, on the staff solicitud page: the project of a quote request, and the
// subject and message of a contact form.

export interface SolicitudProjectProps {
  solicitud: SolicitudProjectFields;
}

export function SolicitudProject({ solicitud: s }: SolicitudProjectProps) {
  return (
    <SolicitudPanel title="Proyecto" id="seccion-proyecto">
      <dl className="grid gap-4 wrap-anywhere sm:grid-cols-2">
        <SolicitudField label="Industria">{optionLabel(INDUSTRY_OPTIONS, s.industry)}</SolicitudField>
        <SolicitudField label="Servicio">{optionLabel(SERVICE_OPTIONS, s.service)}</SolicitudField>
        <SolicitudField label="Descripción del proyecto" wide>
          {s.description ? <span className="whitespace-pre-wrap">{s.description}</span> : null}
        </SolicitudField>
        <SolicitudField label="Cantidad">{s.quantity != null ? formatUnitQuantity(s.quantity, "pieza") : null}</SolicitudField>
        <SolicitudField label="Cantidades adicionales (precios por volumen)">
          {s.extraQuantities.length ? s.extraQuantities.map((quantity) => formatNumber(quantity)).join(", ") : null}
        </SolicitudField>
        <SolicitudField label="Fecha requerida">{s.requiredBy ? formatCalendarDate(s.requiredBy) : "Sin fecha indicada"}</SolicitudField>
        <SolicitudField label="Material">{s.material}</SolicitudField>
        <SolicitudField label="Acabado">{s.finish}</SolicitudField>
        <SolicitudField label="Tolerancias">{optionLabel(TOLERANCE_OPTIONS, s.tolerance)}</SolicitudField>
        <SolicitudField label="¿Lleva roscas?">{s.threads == null ? null : s.threads ? "Sí" : "No"}</SolicitudField>
        <SolicitudField label="Certificados e inspección">
          {s.certificates.length ? (
            <ul className="list-inside list-disc">
              {s.certificates.map((certificate) => (
                <li key={certificate}>{optionLabel(CERTIFICATE_OPTIONS, certificate)}</li>
              ))}
            </ul>
          ) : (
            "Ninguno"
          )}
        </SolicitudField>
      </dl>
    </SolicitudPanel>
  );
}

export function SolicitudMessage({ subject, message }: { subject: string | null; message: string | null }) {
  return (
    <SolicitudPanel title="Mensaje" id="seccion-mensaje">
      <dl className="grid gap-4">
        <SolicitudField label="Asunto">{subject}</SolicitudField>
        <SolicitudField label="Mensaje">{message ? <span className="whitespace-pre-wrap">{message}</span> : null}</SolicitudField>
      </dl>
    </SolicitudPanel>
  );
}
