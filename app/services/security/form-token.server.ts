import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "~/services/security/secret.server";

// A signed one-time token in every public form: it carries when the form was shown (a person
// needs a few seconds to fill it, a bot does not) and it is stored with what the form creates,
// so a second post of the same form (double click, back and resubmit) finds the first one.

export const MIN_FILL_MS = 3_000;
export const MAX_AGE_MS = 24 * 60 * 60 * 1000;

function sign(payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`form-token:${payload}`).digest("base64url");
}

export function issueFormToken(form: string, now = Date.now()): string {
  const payload = `${form}.${now.toString(36)}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${sign(payload)}`;
}

export type FormTokenCheck = { ok: true } | { ok: false; reason: "invalid" | "expired" | "too-fast" };

export function verifyFormToken(token: string, form: string, now = Date.now()): FormTokenCheck {
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== form) return { ok: false, reason: "invalid" };
  const payload = parts.slice(0, 3).join(".");
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(parts[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "invalid" };
  const issuedAt = Number.parseInt(parts[1]!, 36);
  if (!Number.isFinite(issuedAt) || now - issuedAt > MAX_AGE_MS) return { ok: false, reason: "expired" };
  if (now - issuedAt < MIN_FILL_MS) return { ok: false, reason: "too-fast" };
  return { ok: true };
}
