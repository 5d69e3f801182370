import { useLiveNotices, type LiveNotice } from "~/components/live/live-notices";
import { useLiveUpdates } from "~/lib/live/use-live-updates";

// A quote's page is live for both sides (/quotes/{id} for its customer, /admin/cotizaciones/{id}
// for staff): the quote's record (status, acceptance, a new revision sent) and the messages of this
// quote reload the page's data; a message from the other side is also named in a notice.

export function useLiveQuote(quoteId: string, side: "customer" | "staff"): LiveNotice[] {
  const { notices, announce } = useLiveNotices();
  useLiveUpdates([`cotizaciones/${quoteId}`, "mensajes/*"], {
    // `mensajes/*` brings every message this account may see; only this quote's matter here.
    accept: ({ topic, record }) => topic !== "mensajes/*" || record.cotizacion === quoteId,
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
  return notices;
}
