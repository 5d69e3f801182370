import type { QuoteStatus } from "~/db/schema/quotes";

// The quote lifecycle as one table, read by the domain (to refuse) and by the pages (to decide
// which buttons to show), so the two can never disagree. Browser-safe: no server code, no database.
//
//   borrador → enviada → aceptada | rechazada | vencida;  borrador | enviada | vencida → cancelada.
//
// A sent quote changes only through a new revision ("revisar" opens a draft of it, "enviar" sends
// that draft); earlier revisions stay readable. Rows are matched against the *effective* status:
// a sent quote past its date is "vencida" even before the expiry job writes it.

export type { QuoteStatus };

export type QuoteAction = "guardar" | "enviar" | "revisar" | "aceptar" | "rechazar" | "cancelar" | "vencer";

/** Who may take a transition: staff in the panel, the quote's own customer, or the expiry job. */
export type QuoteActor = "staff" | "customer" | "system";

export interface QuoteTransition {
  from: QuoteStatus;
  action: QuoteAction;
  to: QuoteStatus;
  who: QuoteActor;
  /**
   * What the newest revision must be: "draft" (not sent yet: it is edited and sent) or "sent" (a
   * new draft can be opened from it). Absent when it does not matter: a customer answers the
   * revision they were sent even while staff prepare the next one.
   */
  newest?: "draft" | "sent";
}

const row = (from: QuoteStatus, action: QuoteAction, to: QuoteStatus, who: QuoteActor, newest?: "draft" | "sent"): QuoteTransition => ({ from, action, to, who, newest });

export const QUOTE_TRANSITIONS: readonly QuoteTransition[] = [
  // Staff edit and send the draft revision; sending again after a rejection or expiry starts a new validity.
  row("borrador", "guardar", "borrador", "staff", "draft"),
  row("enviada", "guardar", "enviada", "staff", "draft"),
  row("rechazada", "guardar", "rechazada", "staff", "draft"),
  row("vencida", "guardar", "vencida", "staff", "draft"),
  row("borrador", "enviar", "enviada", "staff", "draft"),
  row("enviada", "enviar", "enviada", "staff", "draft"),
  row("rechazada", "enviar", "enviada", "staff", "draft"),
  row("vencida", "enviar", "enviada", "staff", "draft"),
  // A new draft revision from the last one sent; the status stays until that draft is sent.
  row("enviada", "revisar", "enviada", "staff", "sent"),
  row("rechazada", "revisar", "rechazada", "staff", "sent"),
  row("vencida", "revisar", "vencida", "staff", "sent"),
  // The customer answers a sent quote while it is valid.
  row("enviada", "aceptar", "aceptada", "customer"),
  row("enviada", "rechazar", "rechazada", "customer"),
  // Staff withdraw a draft or a sent quote, also one whose date passed.
  row("borrador", "cancelar", "cancelada", "staff"),
  row("enviada", "cancelar", "cancelada", "staff"),
  row("vencida", "cancelar", "cancelada", "staff"),
  // The expiry job writes down what readers already see.
  row("enviada", "vencer", "vencida", "system"),
];

/** What a reader sees: a sent quote past its date is "vencida" even before the job marks it. */
export function effectiveStatus(status: QuoteStatus, validUntil: Date | string | null, now: Date | string): QuoteStatus {
  return status === "enviada" && validUntil && new Date(validUntil).getTime() < new Date(now).getTime() ? "vencida" : status;
}

export interface QuoteSituation {
  /** The effective status (see effectiveStatus). */
  status: QuoteStatus;
  who: QuoteActor;
  /** Whether the newest revision has been sent; unknown (undefined) skips that condition. */
  newestSent?: boolean;
}

export type QuoteCheck = { allowed: true; to: QuoteStatus } | { allowed: false; because: "revision" | "status" };

const newestMatches = (transition: QuoteTransition, newestSent: boolean | undefined) =>
  transition.newest === undefined || newestSent === undefined || (transition.newest === "sent") === newestSent;

/**
 * May `who` take `action` now? A refusal says whether the newest revision is the wrong kind (sent
 * when a draft is needed, or the reverse) or the status does not allow it; the revision is judged
 * first, as it is the more specific answer ("this revision was already sent").
 */
export function checkQuoteAction(situation: QuoteSituation & { action: QuoteAction }): QuoteCheck {
  const rows = QUOTE_TRANSITIONS.filter((transition) => transition.action === situation.action && transition.who === situation.who);
  const revisionKind = rows.find((transition) => transition.newest !== undefined)?.newest;
  if (revisionKind && situation.newestSent !== undefined && (revisionKind === "sent") !== situation.newestSent) return { allowed: false, because: "revision" };
  const found = rows.find((transition) => transition.from === situation.status && newestMatches(transition, situation.newestSent));
  return found ? { allowed: true, to: found.to } : { allowed: false, because: "status" };
}

/** The actions `who` may take on a quote in this situation, in table order; the pages show only these. */
export function allowedActions(situation: QuoteSituation): QuoteAction[] {
  const actions: QuoteAction[] = [];
  for (const transition of QUOTE_TRANSITIONS) {
    if (actions.includes(transition.action) || transition.who !== situation.who) continue;
    if (checkQuoteAction({ ...situation, action: transition.action }).allowed) actions.push(transition.action);
  }
  return actions;
}

/** Where a status-changing action (aceptar, rechazar, cancelar, vencer) leads, whatever the status it leaves. */
export function actionTarget(action: QuoteAction): QuoteStatus {
  return QUOTE_TRANSITIONS.find((transition) => transition.action === action)!.to;
}

/** The statuses an action leaves from (for bulk updates such as the expiry job). */
export function statusesAllowing(action: QuoteAction, who: QuoteActor): QuoteStatus[] {
  return QUOTE_TRANSITIONS.filter((transition) => transition.action === action && transition.who === who).map((transition) => transition.from);
}
