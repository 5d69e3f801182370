import { SOLICITUD_STATUSES, type SOLICITUD_TYPES } from "./forms";

// The life of a solicitud as one table, browser-safe: the staff page asks it which moves to offer
// and the commands ask it whether to refuse, so the screen and the rules cannot disagree.
//
//   nuevo → en revisión → cotizado → cerrado | descartado (the last two are final)

export type SolicitudStatus = (typeof SOLICITUD_STATUSES)[number]["value"];
export type SolicitudType = (typeof SOLICITUD_TYPES)[number]["value"];

/** Who makes a move: the staff by hand, or the creation of a quote from the request. */
export type SolicitudMover = "personal" | "cotizacion";

export interface SolicitudTransition {
  from: SolicitudStatus;
  to: SolicitudStatus;
  who: SolicitudMover;
}

/** Listed in the order the staff page offers them (its first row is the preselected move). */
export const SOLICITUD_TRANSITIONS: readonly SolicitudTransition[] = [
  { from: "nuevo", to: "en_revision", who: "personal" },
  { from: "nuevo", to: "cerrado", who: "personal" },
  { from: "nuevo", to: "descartado", who: "personal" },
  { from: "en_revision", to: "cotizado", who: "personal" },
  { from: "en_revision", to: "cerrado", who: "personal" },
  { from: "en_revision", to: "descartado", who: "personal" },
  { from: "cotizado", to: "cerrado", who: "personal" },
  { from: "cotizado", to: "descartado", who: "personal" },
  // A quote created from the request marks it "cotizado", also straight from nuevo.
  { from: "nuevo", to: "cotizado", who: "cotizacion" },
  { from: "en_revision", to: "cotizado", who: "cotizacion" },
];

export const SOLICITUD_STATUS_ORDER: readonly SolicitudStatus[] = SOLICITUD_STATUSES.map((status) => status.value);

export function isSolicitudStatus(value: string): value is SolicitudStatus {
  return (SOLICITUD_STATUS_ORDER as readonly string[]).includes(value);
}

/** The statuses `who` may move a solicitud in `from` to; empty for a final status. */
export function allowedNextStatuses(from: SolicitudStatus, who: SolicitudMover = "personal"): readonly SolicitudStatus[] {
  return SOLICITUD_TRANSITIONS.filter((row) => row.from === from && row.who === who).map((row) => row.to);
}

export function canMoveSolicitud(move: { from: SolicitudStatus; to: SolicitudStatus; who: SolicitudMover }): boolean {
  return SOLICITUD_TRANSITIONS.some((row) => row.from === move.from && row.to === move.to && row.who === move.who);
}

export function statusLabel(status: string): string {
  return SOLICITUD_STATUSES.find((option) => option.value === status)?.label ?? status;
}
