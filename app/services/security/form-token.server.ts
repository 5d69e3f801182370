import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "~/services/security/secret.server";

// A signed token in every public form: it carries when the form was rendered and it is stored with
// what the form creates, so a second post of the same form (double click, back and resubmit) finds
// the first one. Public form pages are cached (docs/decisions/0031-cached-forms.md): everyone who
// loads the page within its cache window gets the same token, so two more fields come with it —
// a per-visitor nonce (the replay key is token + nonce) and how long the form was open before it
// was sent, measured by the browser (a person needs a few seconds to fill it, a bot does not).

export const MIN_FILL_MS = 3_000;
export const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * A browser cannot have had the form open longer than the page has existed; this much more is
 * forgiven (a clock adjusted while the form was open). A longer claim is made up: a bot.
 */
export const FILL_CLAIM_SLACK_MS = 5_000;

function sign(payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`form-token:${payload}`).digest("base64url");
}

export function issueFormToken(form: string, now = Date.now()): string {
  const payload = `${form}.${now.toString(36)}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${sign(payload)}`;
}

export type FormTokenCheck = { ok: true } | { ok: false; reason: "invalid" | "expired" | "too-fast" };

/**
 * Signature and age of the token, then the fill time: the browser's own measure when the form
 * sent one (`fillMs`, see FORM_FILL_FIELD), else the token's age (a form posted without
 * JavaScript; on a cached page that age says little, see the decision record).
 */
export function verifyFormToken(token: string, form: string, now = Date.now(), fillMs?: number): FormTokenCheck {
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== form) return { ok: false, reason: "invalid" };
  const payload = parts.slice(0, 3).join(".");
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(parts[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "invalid" };
  const issuedAt = Number.parseInt(parts[1]!, 36);
  if (!Number.isFinite(issuedAt) || now - issuedAt > MAX_AGE_MS) return { ok: false, reason: "expired" };
  const age = now - issuedAt;
  if (age < 0) return { ok: false, reason: "too-fast" };
  if (fillMs === undefined) return age < MIN_FILL_MS ? { ok: false, reason: "too-fast" } : { ok: true };
  if (fillMs < MIN_FILL_MS || fillMs > age + FILL_CLAIM_SLACK_MS) return { ok: false, reason: "too-fast" };
  return { ok: true };
}

/** The browser's fill time (FORM_FILL_FIELD in lib/form-visit); undefined when absent or not a plain count of ms. */
export function readFillMs(value: FormDataEntryValue | null): number | undefined {
  return typeof value === "string" && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

/** The visitor's nonce (FORM_NONCE_FIELD in lib/form-visit), a UUID or 32 hex digits; null when absent or malformed. */
export function readFormNonce(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : null;
}
