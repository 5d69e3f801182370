// The one contract between routes and the domain. A domain function takes typed input and answers
// a Result; it never sees a Request, FormData or cookie and never picks an HTTP status. The route
// turns a failure into its answer (a form reply with status, a thrown 404/403, JSON) through
// `failureStatus` and, for forms, `replyTo` in ~/lib/form-reply.

export type FieldErrors = Record<string, string[]>;

export type Failure =
  /** The input breaks a rule: messages per field and/or for the whole form (400). */
  | { ok: false; kind: "invalid"; fieldErrors: FieldErrors; formErrors: string[] }
  /** The input is fine but the record's state does not allow it now (409). */
  | { ok: false; kind: "conflict"; message: string }
  /** No such record, or not one this person may know exists (404). */
  | { ok: false; kind: "not-found"; message: string }
  /** The person may see the record but not do this (403). */
  | { ok: false; kind: "forbidden"; message: string }
  /** Too many attempts; try again after `retryAfterSeconds` (429). */
  | { ok: false; kind: "limited"; message: string; retryAfterSeconds: number };

export type Result<T = void> = { ok: true; value: T } | Failure;

export function ok(): { ok: true; value: void };
export function ok<T>(value: T): { ok: true; value: T };
export function ok<T>(value?: T): { ok: true; value: T | undefined } {
  return { ok: true, value };
}

export function invalid(errors: { fieldErrors?: FieldErrors; formErrors?: string[] } | string): Failure {
  if (typeof errors === "string") return { ok: false, kind: "invalid", fieldErrors: {}, formErrors: [errors] };
  return { ok: false, kind: "invalid", fieldErrors: errors.fieldErrors ?? {}, formErrors: errors.formErrors ?? [] };
}

export function conflict(message: string): Failure {
  return { ok: false, kind: "conflict", message };
}

export function notFoundResult(message = "No encontramos lo que busca."): Failure {
  return { ok: false, kind: "not-found", message };
}

export function forbiddenResult(message = "No tiene permiso para hacer esto."): Failure {
  return { ok: false, kind: "forbidden", message };
}

export function limited(message: string, retryAfterSeconds: number): Failure {
  return { ok: false, kind: "limited", message, retryAfterSeconds };
}

const STATUS: Record<Failure["kind"], number> = { invalid: 400, conflict: 409, "not-found": 404, forbidden: 403, limited: 429 };

export function failureStatus(failure: Failure): number {
  return STATUS[failure.kind];
}

/** Headers a failure asks for (Retry-After for a limit). */
export function failureHeaders(failure: Failure): Record<string, string> {
  return failure.kind === "limited" ? { "Retry-After": String(failure.retryAfterSeconds) } : {};
}

/** Every message of a failure, for a form's top-level error list. */
export function failureMessages(failure: Failure): { formErrors: string[]; fieldErrors: FieldErrors } {
  if (failure.kind === "invalid") return { formErrors: failure.formErrors, fieldErrors: failure.fieldErrors };
  return { formErrors: [failure.message], fieldErrors: {} };
}
