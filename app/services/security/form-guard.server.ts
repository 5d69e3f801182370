import { isHoneypotFilled } from "~/lib/honeypot";
import { consumeRateLimit, rateLimitMessage, type RateLimitRule } from "./rate-limit.server";

export interface FormGuardFailure {
  message: string;
  status: number;
  headers?: Record<string, string>;
}

/**
 * The checks every public form and sign-in screen runs before doing anything: the honeypot, then a
 * per-IP rate limit. Returns what to tell the person, or null to go on.
 */
export async function checkPublicForm(
  formData: FormData,
  options: { scope: string; ip: string; rule: RateLimitRule },
): Promise<FormGuardFailure | null> {
  if (isHoneypotFilled(formData)) {
    return { message: "No pudimos procesar el formulario. Si usa un programa que llena formularios, desactívelo e intente de nuevo.", status: 400 };
  }
  const limit = await consumeRateLimit(`${options.scope}:${options.ip || "desconocida"}`, options.rule);
  if (!limit.allowed) {
    return { message: rateLimitMessage(limit), status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } };
  }
  return null;
}
