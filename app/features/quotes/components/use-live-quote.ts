import { useEffect, useRef } from "react";
import { useLiveNotices, type LiveNotice } from "~/components/live/live-notices";
import { useLiveUpdates } from "~/lib/live/use-live-updates";

// A quote's page is live for both sides (/quotes/{id} for its customer, /admin/cotizaciones/{id}
// for staff): the quote's record (status, acceptance, a new revision sent) and the messages of this
// quote reload the page's data. What the other side did is also named in a notice: their message,
// and (read from the reloaded data, not from the event) a revision sent or the quote cancelled for
// the customer, an acceptance or rejection for staff.

export interface LiveQuoteState {
  id: string;
  status: string;
  /** The revision the page shows (the customer's: the one sent to them). */
  revision: number;
}

const CHANGED_BY_OTHER_SIDE: Record<"customer" | "staff", Record<string, string>> = {
  customer: { cancelada: "Forja canceló esta cotización." },
  staff: { aceptada: "El cliente aceptó la cotización.", rechazada: "El cliente rechazó la cotización." },
};

export function useLiveQuote(quote: LiveQuoteState, side: "customer" | "staff"): LiveNotice[] {
  const { notices, announce } = useLiveNotices();
  useLiveUpdates([`cotizaciones/${quote.id}`, "mensajes/*"], {
    // `mensajes/*` brings every message this account may see; only this quote's matter here.
    accept: ({ topic, record }) => topic !== "mensajes/*" || record.cotizacion === quote.id,
    onEvent({ topic, action, record }) {
      if (topic !== "mensajes/*" || action !== "create") return;
      const fromStaff = record.personal === true;
      if (fromStaff === (side === "staff")) return;
      announce({
        id: `mensaje:${String(record.id)}`,
        text: side === "customer" ? "Mensaje nuevo del equipo de Forja." : `Mensaje nuevo de ${String(record.autor ?? "el cliente")}.`,
        link: { to: side === "customer" ? "#mensajes" : "#seccion-mensajes", label: "Ir a los mensajes" },
      });
    },
  });

  const shown = useRef(quote);
  useEffect(() => {
    const before = shown.current;
    shown.current = quote;
    if (before.id !== quote.id) return;
    if (side === "customer" && quote.revision > before.revision) {
      announce({
        id: `revision:${quote.id}:${quote.revision}`,
        text: `Forja le envió la revisión ${quote.revision} de esta cotización. Revise los cambios antes de responder.`,
      });
    }
    const changed = CHANGED_BY_OTHER_SIDE[side][quote.status];
    if (quote.status !== before.status && changed) announce({ id: `estado:${quote.id}:${quote.status}`, text: changed });
    // A change of these values, not a new object holding the same ones.
  }, [quote.id, quote.status, quote.revision, side, announce]);

  return notices;
}
