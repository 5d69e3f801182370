import type { ReactNode } from "react";
import type { PublicSiteFacts } from "~/services/site-config/business-facts";
import { formatWorkingDays } from "~/lib/format";

// The side summary of the customer's quote page: total, lead time, validity, and how to talk to
// Forja about it instead (phone, or an email already titled with the quote number).

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export interface QuoteSummaryProps {
  number: string;
  /** The total as shown, e.g. "$12,345.60". */
  total: string;
  leadTimeDays: number;
  validity: ReactNode;
  /** The business's phone and email (the facts of `ajustes`). */
  contact: Pick<PublicSiteFacts, "phone" | "email">;
}

export function QuoteSummary({ number, total, leadTimeDays, validity, contact }: QuoteSummaryProps) {
  return (
    <section aria-labelledby="resumen" className="rounded-lg border border-acero-200 bg-acero-50 p-6">
      <h2 id="resumen" className="text-lg font-semibold text-acero-900">
        Resumen
      </h2>
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="text-acero-700">Total (IVA incluido)</dt>
          <dd className="text-xl font-bold text-acero-900">{total} MXN</dd>
        </div>
        <div>
          <dt className="text-acero-700">Plazo de entrega</dt>
          <dd className="text-acero-900">
            {formatWorkingDays(leadTimeDays)}
          </dd>
        </div>
        <div>
          <dt className="text-acero-700">Vigencia</dt>
          <dd className="text-acero-900">{validity}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-acero-700">
        ¿Prefiere hablarlo? Llámenos al{" "}
        <a href={contact.phone.href} className={linkClass}>
          {contact.phone.display}
        </a>{" "}
        o escriba a{" "}
        <a href={`mailto:${contact.email}?subject=${encodeURIComponent(`Cotización ${number}`)}`} className={linkClass}>
          {contact.email}
        </a>
        .
      </p>
    </section>
  );
}
