import type { ReactNode } from "react";
import { AppLink } from "./app-link";

// The pieces every staff list's filter form (GET, state in the URL) shares: the search box, the
// date range with its note on time zones, and the apply / clear buttons.

/** The look of every field in a staff filter form. */
export const FILTER_FIELD_CLASS = "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-sm text-acero-900";

const LABEL_CLASS = "block text-sm font-semibold text-acero-900";
const DATE_HELP_ID = "filtro-fechas-ayuda";

/** The `q` search box, two columns wide from small screens up. */
export function FilterSearch({ defaultValue, placeholder }: { defaultValue: string; placeholder: string }) {
  return (
    <div className="sm:col-span-2">
      <label htmlFor="filtro-q" className={LABEL_CLASS}>
        Buscar
      </label>
      <input id="filtro-q" name="q" type="search" defaultValue={defaultValue} placeholder={placeholder} className={FILTER_FIELD_CLASS} />
    </div>
  );
}

/** `desde` and `hasta` (YYYY-MM-DD), described by FilterDateRangeHelp, which the form must show. */
export function FilterDateRange({ from, to }: { from: string; to: string }) {
  return (
    <>
      {[
        { id: "filtro-desde", name: "desde", label: "Desde", value: from },
        { id: "filtro-hasta", name: "hasta", label: "Hasta", value: to },
      ].map((field) => (
        <div key={field.id}>
          <label htmlFor={field.id} className={LABEL_CLASS}>
            {field.label}
          </label>
          <input id={field.id} name={field.name} type="date" defaultValue={field.value} className={FILTER_FIELD_CLASS} aria-describedby={DATE_HELP_ID} />
        </div>
      ))}
    </>
  );
}

export function FilterDateRangeHelp() {
  return (
    <p id={DATE_HELP_ID} className="mt-2 text-xs text-acero-600">
      Fechas en hora de la Ciudad de México; «hasta» incluye todo ese día.
    </p>
  );
}

/** The submit button and, when something is filtered, a link back to the unfiltered list. */
export function FilterActions({
  clearHref,
  showClear,
  submitLabel = "Aplicar filtros",
  className = "mt-4 flex flex-wrap items-center gap-4",
  children,
}: {
  clearHref: string;
  showClear: boolean;
  submitLabel?: string;
  className?: string;
  /** Extra controls before the button (e.g. a checkbox). */
  children?: ReactNode;
}) {
  return (
    <div className={className}>
      {children}
      <button type="submit" className="btn-dark py-2 text-sm">
        {submitLabel}
      </button>
      {showClear ? (
        <AppLink to={clearHref} className="text-sm font-semibold text-forja-700 underline underline-offset-2">
          Quitar filtros
        </AppLink>
      ) : null}
    </div>
  );
}
