import { QUOTE_STATUSES } from "../forms";

// The status of a quote as a coloured pill that always carries its word (colour alone says nothing
// to screen readers or to people who do not tell those colours apart). Used by staff and customers.

const STATUS_STYLES: Record<string, string> = {
  borrador: "border-acero-300 bg-acero-100 text-acero-800",
  enviada: "border-blue-200 bg-blue-50 text-blue-900",
  aceptada: "border-green-200 bg-green-50 text-green-900",
  rechazada: "border-red-200 bg-red-50 text-red-800",
  vencida: "border-amber-200 bg-amber-50 text-amber-900",
  cancelada: "border-acero-300 bg-white text-acero-700",
};

// A small shape per state, so that the pills differ by more than colour even at a glance.
const STATUS_MARKS: Record<string, string> = {
  borrador: "○",
  enviada: "→",
  aceptada: "✓",
  rechazada: "✕",
  vencida: "!",
  cancelada: "–",
};

export function quoteStatusLabel(status: string): string {
  return QUOTE_STATUSES.find((option) => option.value === status)?.label ?? status;
}

export function QuoteStatusPill({ status, className = "" }: { status: string; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_STYLES[status] ?? STATUS_STYLES.borrador} ${className}`}
    >
      <span aria-hidden="true">{STATUS_MARKS[status] ?? "•"}</span>
      <span>{quoteStatusLabel(status)}</span>
    </span>
  );
}
