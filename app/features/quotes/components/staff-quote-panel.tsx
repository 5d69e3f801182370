import type { ReactNode } from "react";
import type { QuoteLine } from "../types";

// The frame shared by the sections of the staff quote page (/admin/cotizaciones/:id): a titled
// panel, a labelled value (a dash when empty) and the shape of a revision as that page reads it.

/** One revision of a quote as the staff page shows it (sent or draft). */
export interface StaffQuoteRevision {
  id: string;
  revision: number;
  lines: QuoteLine[];
  leadTimeDays: number;
  validityDays: number;
  terms: string;
  notes: string;
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
  sentAt: Date | string | null;
}

export function StaffPanel({ title, id, children, className = "" }: { title: string; id: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`rounded-lg border border-acero-200 bg-white p-5 ${className}`}>
      <h2 id={id} className="text-lg font-semibold text-acero-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function StaffField({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm font-semibold text-acero-700">{label}</dt>
      <dd className="mt-0.5 text-acero-900">{children ?? <span className="text-acero-600">—</span>}</dd>
    </div>
  );
}

