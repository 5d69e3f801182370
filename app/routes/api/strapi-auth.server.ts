import { readFieldsBody } from "~/lib/request-body";
import type { ZodType } from "zod";
import type { ApiSession } from "~/features/accounts/index.server";
import { emailField } from "~/lib/form-fields";
import { signRecordToken } from "~/services/records/tokens.server";
import { consumeRateLimit, type RateLimitRule } from "~/services/security/rate-limit.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { readTokenAuth } from "./record-auth.server";

// The seed's content-service auth API (Strapi's users-permissions, docs/decisions/0017): its error
// envelope and names, its body validation's shape, and its `jwt` — the record API's `users` token,
// tied to a better-auth session (docs/decisions/0014). Header-authenticated: nothing here reads or
// sets a cookie.

export const STRAPI_ERRORS = {
  ValidationError: 400,
  ApplicationError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  NotFoundError: 404,
  PayloadTooLargeError: 413,
  RateLimitError: 429,
} as const;

export type StrapiErrorName = keyof typeof STRAPI_ERRORS;

/** Strapi's literal messages the seed's front end may show or compare. */
export const STRAPI_MESSAGES = {
  invalidCredentials: "Invalid identifier or password",
  blocked: "Your account has been blocked by an administrator",
  emailTaken: "Email or Username are already taken",
  passwordsDoNotMatch: "Passwords do not match",
  incorrectCode: "Incorrect code provided",
  wrongCurrentPassword: "The provided current password is invalid",
  samePassword: "Your new password must be different than your current password",
  invalidToken: "Invalid token",
  missingCredentials: "Missing or invalid credentials",
  tooManyRequests: "Too many requests, please try again later.",
  providerDisabled: "This provider is disabled",
  notFound: "Not Found",
} as const;

const NO_STORE = { "Cache-Control": "no-store" };

export function strapiError(name: StrapiErrorName, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const status = STRAPI_ERRORS[name];
  return Response.json({ data: null, error: { status, name, message, details } }, { status, headers: { ...NO_STORE, ...headers } });
}

export function strapiJson(body: unknown): Response {
  return Response.json(body, { headers: NO_STORE });
}

/** Counts the request against the same per-IP bucket as the page; a 429 RateLimitError when over. */
export async function rateLimited(scope: string, rule: RateLimitRule, ip: string): Promise<Response | null> {
  const limit = await consumeRateLimit(`${scope}:${ip || "desconocida"}`, rule);
  if (limit.allowed) return null;
  return strapiError("RateLimitError", STRAPI_MESSAGES.tooManyRequests, {}, { "Retry-After": String(limit.retryAfterSeconds) });
}

/** The request's body as an object: JSON (an empty body is `{}`) or a form, at most 64 KB. */
export async function readBody(request: Request): Promise<Record<string, unknown> | "too-large" | null> {
  return readFieldsBody(request);
}

/** The answer to a body that is not a JSON object or a form, or one past the size limit. */
export function invalidBody(body: "too-large" | null = null): Response {
  return body === "too-large" ? strapiError("PayloadTooLargeError", "Request entity too large") : strapiError("ValidationError", "Invalid request body");
}

/** One field's rule: required string (Strapi's own check), then Forja's rule for it, if any. */
interface FieldRule {
  required?: boolean;
  email?: boolean;
  rule?: ZodType<string>;
}

export interface ValidationIssue {
  path: string[];
  message: string;
  name: "ValidationError";
}

/** A ValidationError as Strapi's yup validation answers it: one message, or "N errors occurred" with each in details. */
export function validationError(issues: ValidationIssue[]): Response {
  const message = issues.length === 1 ? issues[0]!.message : `${issues.length} errors occurred`;
  return strapiError("ValidationError", message, { errors: issues });
}

/**
 * The fields of `body` by `rules` (values trimmed by Forja's rules where they say so), or the
 * ValidationError to answer. Unknown fields are refused as Strapi's register does.
 */
export function validateBody<K extends string>(
  body: Record<string, unknown>,
  rules: Record<K, FieldRule>,
  options: { refuseUnknown?: boolean } = {},
): { ok: true; value: Partial<Record<K, string>> } | { ok: false; response: Response } {
  const issues: ValidationIssue[] = [];
  const value: Partial<Record<K, string>> = {};
  if (options.refuseUnknown) {
    const unknown = Object.keys(body).filter((key) => !(key in rules));
    if (unknown.length) return { ok: false, response: strapiError("ValidationError", `Invalid parameters: ${unknown.join(", ")}`) };
  }
  for (const key of Object.keys(rules) as K[]) {
    const rule = rules[key];
    const raw = body[key];
    if (raw === undefined || raw === null || raw === "") {
      if (rule.required) issues.push({ path: [key], message: `${key} is a required field`, name: "ValidationError" });
      continue;
    }
    if (typeof raw !== "string") {
      issues.push({ path: [key], message: `${key} must be a \`string\` type`, name: "ValidationError" });
      continue;
    }
    const check = rule.email ? emailField : rule.rule;
    if (!check) {
      value[key] = raw;
      continue;
    }
    const parsed = check.safeParse(raw);
    if (parsed.success) value[key] = parsed.data;
    else issues.push({ path: [key], message: rule.email ? `${key} must be a valid email` : (parsed.error.issues[0]?.message ?? `${key} is invalid`), name: "ValidationError" });
  }
  return issues.length ? { ok: false, response: validationError(issues) } : { ok: true, value };
}

/** The API's `jwt`: the record API's `users` token for this session (7 days at most, never past the session). */
export function issueJwt(apiSession: ApiSession): string {
  const { account, sessionId, sessionExpiresAt } = apiSession;
  return signRecordToken({ id: account.id, collection: "users", sessionId, sessionExpiresAt }, { secret: getAuthSecret() });
}

/** The live customer session of the request's `Authorization: Bearer <jwt>`, or null (none, forged, expired, revoked, staff). */
export async function readJwtSession(request: Request): Promise<ApiSession | null> {
  const auth = await readTokenAuth(request);
  return auth && auth.claims.collection === "users" ? auth.session : null;
}
