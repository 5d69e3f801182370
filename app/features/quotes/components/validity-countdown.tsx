import type { QuoteStatus } from "../states";
import { formatDate } from "~/lib/format";
import { calendarDaysBetween } from "~/lib/time";
import { quoteStatusLabel } from "./quote-status-pill";

// How long a quote is still good for, in words: "vence en 12 días", "vence mañana", "vence hoy",
// "vencida", or the final state. Days are calendar days in Mexico City, not 24-hour blocks, so a
// quote valid until tomorrow 09:00 says "mañana" tonight. The page passes `now` from its loader so
// the server and the browser count from the same instant.


export type ValidityTone = "ok" | "soon" | "expired" | "final";

export function describeValidity(status: QuoteStatus | string, validUntil: Date | string | null, now: Date | string): { label: string; tone: ValidityTone } {
  if (status === "vencida") return { label: "vencida", tone: "expired" };
  if (status !== "enviada") return { label: quoteStatusLabel(status).toLowerCase(), tone: "final" };
  if (!validUntil) return { label: "sin fecha de vencimiento", tone: "ok" };
  const days = calendarDaysBetween(new Date(now), new Date(validUntil));
  if (days <= 0) return { label: "vence hoy", tone: "soon" };
  if (days === 1) return { label: "vence mañana", tone: "soon" };
  return { label: `vence en ${days} días`, tone: days <= 5 ? "soon" : "ok" };
}

const TONE_CLASS: Record<ValidityTone, string> = {
  ok: "text-acero-800",
  soon: "font-semibold text-amber-900",
  expired: "font-semibold text-red-800",
  final: "text-acero-700",
};

/** "Vence en 12 días (hasta el 3 de abril de 2026)", "Vencida el 3 de abril de 2026"; no date once it no longer matters. */
export function ValidityCountdown({
  status,
  validUntil,
  now,
  withDate = true,
  className = "",
}: {
  status: QuoteStatus | string;
  validUntil: Date | string | null;
  now: Date | string;
  withDate?: boolean;
  className?: string;
}) {
  const { label, tone } = describeValidity(status, validUntil, now);
  const showDate = withDate && validUntil && (status === "enviada" || status === "vencida");
  const text = label.charAt(0).toUpperCase() + label.slice(1);
  return (
    <span className={`${TONE_CLASS[tone]} ${className}`}>
      {text}
      {showDate ? (
        <span className="font-normal text-acero-700">
          {status === "vencida" ? " el " : " (hasta el "}
          <time dateTime={new Date(validUntil).toISOString()}>{formatDate(validUntil)}</time>
          {status === "vencida" ? "" : ")"}
        </span>
      ) : null}
    </span>
  );
}
