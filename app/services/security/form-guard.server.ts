import { isHoneypotFilled } from "~/lib/honeypot";
import { readFormBody } from "~/lib/request-body";
import { limited, ok, type Failure, type Result } from "~/lib/result";
import { FORM_FILL_FIELD } from "~/lib/form-visit";
import { readFillMs, verifyFormToken } from "./form-token.server";
import { consumeRateLimit, rateLimitMessage, type RateLimitRule } from "./rate-limit.server";

// The one guard in front of every public form and sign-in screen; routes call it before they hand
// anything to a feature. Bots learn nothing from its answers: the honeypot and a form posted faster
// than a person can type get the same message.

export const FORM_GUARD_MESSAGES = {
  bot: "No pudimos procesar el formulario. Si usa un programa que llena formularios automáticamente, desactívelo e intente de nuevo.",
  expired: "El formulario caducó por seguridad. Revise sus datos y envíelo de nuevo.",
  unreadable: "No pudimos leer el formulario. Envíelo de nuevo desde la página.",
} as const;

export interface PublicFormGuard {
  /** Names the rate-limit bucket, e.g. "login" or "form-attempt-cotizacion". */
  scope: string;
  ip: string;
  /** Every attempt counts against this rule; without one, nothing is counted here. */
  rule?: RateLimitRule;
  /** The form's one-time token (see form-token.server): which form it must be for. */
  token?: { form: string };
}

export interface GuardPassed {
  /**
   * The token is genuine but the form came back faster than a person fills it. The caller may
   * still answer with what an earlier identical post created (Back, then resend); anything else
   * it refuses with FORM_GUARD_MESSAGES.bot.
   */
  tooFast: boolean;
  /** The token the form carried ("" without one). */
  token: string;
}

/**
 * Honeypot, then the one-time token, then the per-IP limit on attempts. A refusal is a Result
 * failure: "invalid" (400) for a bot or an expired form, "limited" (429) over the limit. After an
 * "invalid" the form needs a new token; after "limited" its token is still good.
 */
export async function guardPublicForm(fields: FormData, guard: PublicFormGuard): Promise<Result<GuardPassed>> {
  const refuse = (message: string): Failure => ({ ok: false, kind: "invalid", fieldErrors: {}, formErrors: [message] });
  if (isHoneypotFilled(fields)) return refuse(FORM_GUARD_MESSAGES.bot);

  const token = String(fields.get("formToken") ?? "");
  let tooFast = false;
  if (guard.token) {
    const check = verifyFormToken(token, guard.token.form, Date.now(), readFillMs(fields.get(FORM_FILL_FIELD)));
    if (!check.ok && check.reason !== "too-fast") return refuse(FORM_GUARD_MESSAGES.expired);
    tooFast = !check.ok;
  }

  if (guard.rule) {
    const limit = await consumeRateLimit(`${guard.scope}:${guard.ip || "desconocida"}`, guard.rule);
    // Too fast and over the limit: a bot hammering the form; it gets the bot's answer.
    if (!limit.allowed) return tooFast ? refuse(FORM_GUARD_MESSAGES.bot) : limited(rateLimitMessage(limit), limit.retryAfterSeconds);
  }
  return ok({ tooFast, token });
}

/** Reads a urlencoded or multipart body; null when it is not a form one can store (see readFormBody). */
export async function readFormData(request: Request): Promise<FormData | null> {
  const body = await readFormBody(request);
  return body.ok ? body.form : null;
}
