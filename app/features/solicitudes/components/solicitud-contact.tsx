import { SolicitudField, SolicitudPanel } from "./solicitud-panel";

// Who sent the solicitud and how to reach them: mail, phone (and WhatsApp when the number is a
// Mexican one), city, and the site account it is linked to.

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

function whatsappHref(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (digits.length === 10) return `https://wa.me/52${digits}`;
  if (digits.length === 12 && digits.startsWith("52")) return `https://wa.me/${digits}`;
  return null;
}

export interface SolicitudContactProps {
  solicitud: {
    name: string;
    company: string | null;
    email: string;
    phone: string | null;
    city: string | null;
    account: { name: string; email: string } | null;
  };
}

export function SolicitudContact({ solicitud: s }: SolicitudContactProps) {
  const whatsapp = s.phone ? whatsappHref(s.phone) : null;
  return (
    <SolicitudPanel title="Contacto" id="seccion-contacto">
      <dl className="grid gap-4 wrap-anywhere sm:grid-cols-2">
        <SolicitudField label="Nombre">{s.name}</SolicitudField>
        <SolicitudField label="Empresa">{s.company}</SolicitudField>
        <SolicitudField label="Correo electrónico">
          <a href={`mailto:${s.email}`} className={linkClass}>
            {s.email}
          </a>
        </SolicitudField>
        <SolicitudField label="Teléfono o WhatsApp">
          {s.phone ? (
            <span className="flex flex-wrap gap-3">
              <a href={`tel:${s.phone.replace(/[^\d+]/g, "")}`} className={linkClass}>
                {s.phone}
              </a>
              {whatsapp ? (
                <a href={whatsapp} className={linkClass} rel="noopener noreferrer" target="_blank">
                  Abrir en WhatsApp
                </a>
              ) : null}
            </span>
          ) : null}
        </SolicitudField>
        <SolicitudField label="Ciudad o estado">{s.city}</SolicitudField>
        <SolicitudField label="Cuenta en el sitio">
          {s.account ? (
            <>
              {s.account.name} ({s.account.email})
            </>
          ) : (
            "Sin cuenta vinculada"
          )}
        </SolicitudField>
      </dl>
    </SolicitudPanel>
  );
}
