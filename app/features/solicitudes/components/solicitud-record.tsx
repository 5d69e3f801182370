import { formatDateTime } from "~/lib/format";
import { SolicitudField, SolicitudPanel } from "./solicitud-panel";

// The legal record of a solicitud: the NDA and privacy notice accepted, when, and from which
// address and browser it was sent.

const TIME_ZONE_NOTE = "Hora de la Ciudad de México.";

export interface SolicitudRecordProps {
  solicitud: {
    ndaVersion: string | null;
    ndaAcceptedAt: Date | string | null;
    privacyAcceptedAt: Date | string;
    createdAt: Date | string;
    ip: string | null;
    userAgent: string | null;
  };
}

export function SolicitudRecord({ solicitud: s }: SolicitudRecordProps) {
  return (
    <SolicitudPanel title="Confidencialidad y registro" id="seccion-registro">
      <dl className="grid gap-4 wrap-anywhere sm:grid-cols-2">
        <SolicitudField label="Acuerdo de confidencialidad">
          {s.ndaVersion ? (
            <>
              Aceptado: versión {s.ndaVersion}
              {s.ndaAcceptedAt ? <span className="block text-sm text-acero-700">el {formatDateTime(s.ndaAcceptedAt)}</span> : null}
            </>
          ) : (
            "No lo solicitó"
          )}
        </SolicitudField>
        <SolicitudField label="Aviso de privacidad">Aceptado el {formatDateTime(s.privacyAcceptedAt)}</SolicitudField>
        <SolicitudField label="Recibido">{formatDateTime(s.createdAt)}</SolicitudField>
        <SolicitudField label="Dirección IP">{s.ip}</SolicitudField>
        <SolicitudField label="Navegador" wide>
          {s.userAgent ? <span className="text-sm break-all">{s.userAgent}</span> : null}
        </SolicitudField>
      </dl>
      <p className="mt-3 text-xs text-acero-600">{TIME_ZONE_NOTE}</p>
    </SolicitudPanel>
  );
}
