import { consumeRateLimit, RATE_LIMITS, rateLimitMessage, type RateLimitRule } from "~/services/security/rate-limit.server";
import { readFieldsBody } from "~/lib/request-body";
import { failureHeaders, failureMessages } from "~/lib/result";
import { closeAccountGate, openAccountGate } from "./account-lock.server";
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, getAuth } from "./auth.server";

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

export async function handleAuthRequest(request: Request, ip: string): Promise<Response> {
  const limited = request.method === "POST" ? AUTH_API_LIMITS[new URL(request.url).pathname] : undefined;
  if (limited) {
    const result = await consumeRateLimit(`${limited.scope}:${ip || "desconocida"}`, limited.rule);
    if (!result.allowed) {
      return Response.json({ code: 429, message: rateLimitMessage(result) }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
    }
  }
  // Password sign-ins also pass the per-account limit, as every other sign-in path (signIn).
  if (request.method === "POST" && new URL(request.url).pathname === SIGN_IN_EMAIL_PATH) {
    // Read up to the server's bound for JSON bodies: a body padded past a smaller one must not slip by uncounted.
    const fields = await readFieldsBody(request.clone(), SIGN_IN_BODY_BYTES);
    if (fields === null || fields === "too-large") return Response.json({ code: 400, message: "No pudimos leer la solicitud de inicio de sesión." }, { status: 400 });
    // Without an email as text better-auth refuses the request before any password is checked.
    const email = typeof fields.email === "string" ? fields.email : null;
    if (email !== null) {
      const gate = await openAccountGate(email);
      if (!gate.open) return Response.json({ code: 429, message: failureMessages(gate.failure).formErrors[0] }, { status: 429, headers: failureHeaders(gate.failure) });
      const response = await forwardToAuth(request, ip);
      await closeAccountGate(gate, response.ok);
      return response;
    }
  }
  return forwardToAuth(request, ip);
}

function forwardToAuth(request: Request, ip: string): Promise<Response> {
  // The trusted client IP replaces whatever a client sent under that header name.
  const headers = new Headers(request.headers);
  headers.set(CLIENT_IP_HEADER, ip);
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers, redirect: "manual" };
  if (request.method !== "GET" && request.method !== "HEAD") {
    init.body = request.body;
    init.duplex = "half";
  }
  return getAuth().handler(new Request(request.url, init));
}
