import { Form } from "react-router";
import { AppLink } from "~/components/ui/app-link";
import { SubmitButton } from "~/components/ui/form";
import { QuoteDocument } from "./quote-document";
import type { StaffQuoteRevision } from "./staff-quote-panel";
import { formatCount } from "~/lib/format";

// The saved draft laid out as the customer will see it, with the button that sends it as it is.

export interface StaffQuotePreviewProps {
  quote: { id: string; number: string; customerName: string; customerCompany: string | null; customerEmail: string };
  draft: StaffQuoteRevision;
  /** The page's bare address, so "?vista=previa" does not linger after sending. */
  action: string;
}

export function StaffQuotePreview({ quote, draft, action }: StaffQuotePreviewProps) {
  return (
    <section aria-labelledby="vista-previa" className="mt-6 space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="vista-previa" className="text-xl font-semibold text-acero-900">
            Vista previa: así la verá el cliente
          </h2>
          <p className="text-sm text-acero-700">Borrador guardado de la revisión {draft.revision}; todavía no se ha enviado.</p>
        </div>
        <AppLink to={`/admin/cotizaciones/${quote.id}`} className="btn-secondary py-2 text-sm">
          Volver a editar
        </AppLink>
      </div>
      <QuoteDocument
        number={quote.number}
        revision={draft.revision}
        customer={{ name: quote.customerName, company: quote.customerCompany, email: quote.customerEmail }}
        lines={draft.lines}
        subtotalCentavos={draft.subtotalCentavos}
        ivaCentavos={draft.ivaCentavos}
        totalCentavos={draft.totalCentavos}
        leadTimeDays={draft.leadTimeDays}
        validity={`${formatCount(draft.validityDays, "día", "días")} a partir del envío`}
        terms={draft.terms}
        headingLevel={3}
      />
      <Form method="post" action={action} className="flex flex-wrap items-center gap-3">
        <SubmitButton intent="enviar-borrador" pendingLabel="Enviando…" className="btn-primary">
          Enviar al cliente
        </SubmitButton>
        <span className="text-sm text-acero-700">Se envía tal como se ve aquí, con un correo al cliente.</span>
      </Form>
    </section>
  );
}
