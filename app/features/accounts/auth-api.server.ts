import { getDatabase } from "~/db/client.server";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage, type RateLimitRule } from "~/services/security/rate-limit.server";
import { readFieldsBody } from "~/lib/request-body";
import { failureHeaders, failureMessages } from "~/lib/result";
import { closeAccountGate, openAccountGate } from "./account-lock.server";
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, getAuth } from "./auth.server";
import { endOneStepSession, TWO_STEP_REQUIRED } from "./mfa.server";
import { companyField, newPasswordField, personNameField, phoneField } from "./forms";
import type { z } from "~/lib/zod";

// better-auth's own HTTP endpoints (/api/sesion/*, AUTH_BASE_PATH) for API clients and provider callbacks. This is the
// auth adapter at its rawest: a Request in, better-auth's Response out.

// API clients get the same per-IP limits as the screens (which apply theirs through guardPublicForm).
const SIGN_IN_EMAIL_PATH = `${AUTH_BASE_PATH}/sign-in/email`;
/** The server's bound for JSON bodies (server/body-limit.ts JSON_BODY_BYTES). */
const SIGN_IN_BODY_BYTES = 1024 * 1024;

const AUTH_API_LIMITS: Record<string, { scope: string; rule: RateLimitRule }> = {
  [SIGN_IN_EMAIL_PATH]: { scope: "login", rule: RATE_LIMITS.signIn },
  [`${AUTH_BASE_PATH}/sign-up/email`]: { scope: "register", rule: RATE_LIMITS.register },
  [`${AUTH_BASE_PATH}/request-password-reset`]: { scope: "password-reset", rule: RATE_LIMITS.passwordReset },
  [`${AUTH_BASE_PATH}/reset-password`]: { scope: "password-reset", rule: RATE_LIMITS.passwordReset },
};

/**
 * The app's own rules for what better-auth's endpoints would store (the screens and the other APIs
 * apply the same ones through forms.ts): a new password that is long enough and not a common one,
 * a person's name without line breaks, a company and a phone as the forms take them. Checked when
 * the field is sent; better-auth still says which fields are required.
 */
const FIELD_RULES: Record<string, Record<string, z.ZodType>> = {
  [`${AUTH_BASE_PATH}/sign-up/email`]: { name: personNameField, password: newPasswordField, company: companyField, phone: phoneField },
  [`${AUTH_BASE_PATH}/update-user`]: { name: personNameField, company: companyField, phone: phoneField },
  [`${AUTH_BASE_PATH}/change-password`]: { newPassword: newPasswordField },
  [`${AUTH_BASE_PATH}/reset-password`]: { newPassword: newPasswordField },
};

const UNREADABLE_BODY = "No pudimos leer la solicitud: envíe un JSON con texto, sin caracteres nulos.";

/** The first problem of a body's fields under FIELD_RULES, in Spanish; null when there is none. */
function fieldProblem(path: string, fields: Record<string, unknown>): string | null {
  for (const [field, rule] of Object.entries(FIELD_RULES[path] ?? {})) {
    const value = fields[field];
    if (value === undefined || value === null) continue;
    const checked = rule.safeParse(value);
    if (!checked.success) return checked.error.issues[0]?.message ?? UNREADABLE_BODY;
  }
  return null;
}

const refusal = (message: string) => Response.json({ code: 400, message }, { status: 400, headers: { "Cache-Control": "no-store" } });

export async function handleAuthRequest(request: Request, ip: string): Promise<Response> {
  const limited = request.method === "POST" ? AUTH_API_LIMITS[new URL(request.url).pathname] : undefined;
  if (limited) {
    const result = await consumeRateLimit(`${limited.scope}:${ip || "desconocida"}`, limited.rule);
    if (!result.allowed) {
      return Response.json({ code: 429, message: rateLimitMessage(result) }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    }
  }
  // A body better-auth would hand to PostgreSQL with NUL in it (a 500 there), or that breaks the
  // app's rules for a password or a name, is the sender's mistake: a 400 in Spanish.
  // Read up to the server's bound for JSON bodies: a body padded past a smaller one must not slip by uncounted.
  const fields = request.method === "POST" ? await readFieldsBody(request.clone(), SIGN_IN_BODY_BYTES) : {};
  if (fields === null || fields === "too-large") return refusal(UNREADABLE_BODY);
  const problem = fieldProblem(new URL(request.url).pathname, fields);
  if (problem) return refusal(problem);
  // Password sign-ins also pass the per-account limit, as every other sign-in path (signIn).
  if (request.method === "POST" && new URL(request.url).pathname === SIGN_IN_EMAIL_PATH) {
    // Without an email as text better-auth refuses the request before any password is checked.
    const email = typeof fields.email === "string" ? fields.email : null;
    if (email !== null) {
      const gate = await openAccountGate(email);
      if (!gate.open) return Response.json({ code: 429, message: failureMessages(gate.failure).formErrors[0] }, { status: 429, headers: failureHeaders(gate.failure) });
      const response = await forwardToAuth(request, ip);
      // A right password is a right password for the account's limit, even when the door then refuses.
      await closeAccountGate(gate, response.ok);
      return response.ok ? refuseOneStepSignIn(response) : response;
    }
  }
  const response = await forwardToAuth(request, ip);
  const path = new URL(request.url).pathname;
  if (path === LIST_SESSIONS_PATH) return withoutSessionTokens(response);
  if (PROVIDER_CALLBACK.test(path)) return refuseOneStepProviderSignIn(response);
  // The other sign-ins (a provider's ID token to /sign-in/social) open a session in the answer itself.
  if (path.startsWith(`${AUTH_BASE_PATH}/sign-in/`) && response.ok) return refuseOneStepSignIn(response);
  return response;
}

const LIST_SESSIONS_PATH = `${AUTH_BASE_PATH}/list-sessions`;

/**
 * better-auth lists a user's sessions with each one's token, and a token is the whole credential of
 * that session (the bearer plugin takes it). Whoever holds one session would leave with all the
 * others, which outlive signing the first one out. The list keeps everything else (id, device, IP,
 * dates); a client ends the other sessions with /revoke-other-sessions (docs/decisions/0088).
 */
async function withoutSessionTokens(response: Response): Promise<Response> {
  if (!response.ok || !response.headers.get("content-type")?.includes("application/json")) return response;
  const sessions: unknown = await response.json();
  const listed = Array.isArray(sessions)
    ? sessions.map((entry: unknown) => {
        if (typeof entry !== "object" || entry === null) return entry;
        const { token: _token, ...shown } = entry as Record<string, unknown>;
        return shown;
      })
    : sessions;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("Cache-Control", "private, no-store");
  return Response.json(listed, { status: response.status, headers });
}

/** better-auth's provider callbacks (social providers and generic OAuth), which open a session too. */
const PROVIDER_CALLBACK = new RegExp(`^${AUTH_BASE_PATH}/(?:oauth2/)?callback/`);

/**
 * An account that owes a second step (an admin, docs/decisions/0061) gets no session here: what the
 * password opened is ended, and the answer has better-auth's error shape and says where to sign in.
 */
async function refuseOneStepSignIn(response: Response): Promise<Response> {
  if (!(await endOneStepSession(response.headers))) return response;
  await response.body?.cancel().catch(() => {});
  return Response.json({ code: "TWO_STEP_SIGN_IN_REQUIRED", message: TWO_STEP_REQUIRED }, { status: 403, headers: { "Cache-Control": "no-store" } });
}

/** A provider alone is one proof: an admin's provider sign-in ends on /admin/login without a session. */
async function refuseOneStepProviderSignIn(response: Response): Promise<Response> {
  if (!(await endOneStepSession(response.headers))) return response;
  await response.body?.cancel().catch(() => {});
  return new Response(null, { status: 302, headers: { Location: "/admin/login", "Cache-Control": "no-store" } });
}

async function forwardToAuth(request: Request, ip: string): Promise<Response> {
  // The trusted client IP replaces whatever a client sent under that header name.
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, ip);
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, redirect: "manual" };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = request.body;
    init.duplex = "half";
  }
  const response = await getAuth().handler(new Request(request.url, init));
  // better-auth answers any failure, an unreachable database too, with a bare 500. When the database
  // does not answer now, that is the outage: its error is thrown on, so the request is answered 503
  // with Retry-After like every other endpoint (docs/decisions/0052, 0065).
  if (response.status >= 500) {
    await getDatabase()
      .ping()
      .catch(async (error: unknown) => {
        await response.body?.cancel().catch(() => {});
        throw error;
      });
  }
  return response;
}
