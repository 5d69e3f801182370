import type { RequestMeta } from "~/lib/request-meta";
import { forbiddenResult, ok, type Result } from "~/lib/result";
import { forwardHeaders, toSessionUser, type SessionUser } from "./accounts.server";
import { openAccountGate, closeAccountGate } from "./account-lock.server";
import { authFailure } from "./auth-errors.server";
import { getAuth } from "./auth.server";
import { isStaffRole } from "./staff-roles";

// Signing in and out with email and password. Part of the auth adapter: better-auth needs the
// browser's headers to start or end a session and answers the Set-Cookie lines the route forwards,
// so these take RequestMeta and give back Headers.

/** A new session: who it belongs to and the Set-Cookie headers (and bearer token) that carry it. */
export interface SignedIn {
  user: SessionUser;
  headers: Headers;
}

/** Email and password, behind the per-account limit (a locked account answers "limited", 429). */
export async function signIn(meta: RequestMeta, input: { email: string; password: string }): Promise<Result<SignedIn>> {
  const gate = await openAccountGate(input.email);
  if (!gate.open) return gate.failure;
  const result = await checkPassword(meta, input);
  await closeAccountGate(gate, result.ok);
  return result;
}

async function checkPassword(meta: RequestMeta, input: { email: string; password: string }): Promise<Result<SignedIn>> {
  try {
    const { headers, response } = await getAuth().api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return ok({ user: toSessionUser(response.user as unknown as Record<string, unknown>), headers });
  } catch (error) {
    return authFailure(error);
  }
}

/** Staff sign-in: a valid customer account gets a refusal and keeps no session. */
export async function signInStaff(meta: RequestMeta, input: { email: string; password: string }): Promise<Result<SignedIn>> {
  const result = await signIn(meta, input);
  if (!result.ok) return result;
  if (!isStaffRole(result.value.user.role)) {
    const { headers } = result.value;
    const token = headers.get("set-auth-token");
    const cookie = headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    await getAuth().api.signOut({ headers: new Headers({ cookie, ...(token ? { authorization: `Bearer ${token}` } : {}) }) });
    return forbiddenResult("Esta cuenta no tiene acceso al panel de administración.");
  }
  return result;
}

/** Ends the request's session; the Set-Cookie headers that clear it (none if there was nothing to end). */
export async function signOut(meta: RequestMeta): Promise<Headers> {
  try {
    const { headers } = await getAuth().api.signOut({ headers: forwardHeaders(meta), returnHeaders: true });
    return headers;
  } catch {
    return new Headers();
  }
}
