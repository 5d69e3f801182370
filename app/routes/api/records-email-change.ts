import type { Route } from "./+types/records-email-change";
import { checkEmailChangeToken, confirmEmailChange, EMAIL_CHANGE_REFUSALS, requestEmailChange, type EmailChangeTokenProblem } from "~/features/accounts/index.server";
import { readFieldsBody } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { AUTH_API_MESSAGES, pocketBaseError, requiresAuthRecordFrom, VALIDATION_ERRORS, type PocketBaseError } from "~/services/records/auth-records.server";
import { authCollectionByNameOrId } from "~/services/records/tokens.server";
import { consumeRateLimit, RATE_LIMITS } from "~/services/security/rate-limit.server";
import { errorResponse, noContent, readTokenAuth, tooManyRequests } from "./record-auth.server";

// PocketBase's email change of the `users` collection (apis/record_auth_email_change_*.go,
// docs/decisions/0062), over the accounts feature's email-change use case:
//   POST /api/collections/users/request-email-change  {newEmail}         (customer's token) → 204
//   POST /api/collections/users/confirm-email-change  {token, password}                     → 204
// The link goes to the new address; the change needs the link and the account's password; it ends
// every session of the account (PocketBase renews the token key), so the SDK signs in again.

type Endpoint = "request-email-change" | "confirm-email-change";

const SUPERUSERS_DIRECTLY = "All superusers can change their emails directly.";
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** PocketBase's `data.{field}` entries of these two forms. */
const ERRORS = {
  notInList: { code: "validation_not_in_invalid", message: "Must not be in list." },
  invalidNewEmail: { code: "validation_invalid_new_email", message: "Invalid new email address." },
  tokenPayload: { code: "validation_invalid_token_payload", message: "Invalid token payload - newEmail must be set." },
  tokenEmail: { code: "validation_invalid_token_email", message: "The new email address is invalid." },
  invalidPassword: { code: "validation_invalid_password", message: "Missing or invalid auth record password." },
} as const;

const TOKEN_ERRORS: Record<EmailChangeTokenProblem, { code: string; message: string }> = {
  payload: ERRORS.tokenPayload,
  invalid: VALIDATION_ERRORS.invalidToken,
  "new-email-taken": ERRORS.tokenEmail,
};

const invalidBody = (errors: Record<string, unknown>) => errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.validateBody, errors));

/** The body's text fields; anything else in them is PocketBase's loading error. */
async function readTextFields(request: Request, names: readonly string[]): Promise<{ ok: true; value: Record<string, string> } | { ok: false; error: PocketBaseError }> {
  const fields = await readFieldsBody(request);
  if (fields === "too-large") return { ok: false, error: pocketBaseError(413, AUTH_API_MESSAGES.tooLarge) };
  if (!fields) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  const value: Record<string, string> = {};
  for (const name of names) {
    const field = fields[name];
    if (field !== undefined && field !== null && typeof field !== "string") return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
    value[name] = typeof field === "string" ? field : "";
  }
  return { ok: true, value };
}

async function limited(ip: string, endpoint: Endpoint): Promise<Response | null> {
  const limit = await consumeRateLimit(`${endpoint}:${ip || "desconocida"}`, RATE_LIMITS.passwordReset);
  return limit.allowed ? null : tooManyRequests(limit.retryAfterSeconds);
}

async function requestChange(request: Request, collectionParam: string, ip: string): Promise<Response> {
  // PocketBase's middleware asks for a token of this very collection before anything else.
  const auth = await readTokenAuth(request);
  if (!auth) return errorResponse(pocketBaseError(401, AUTH_API_MESSAGES.requiresToken));
  const collection = authCollectionByNameOrId(collectionParam);
  if (auth.claims.collection !== collection) return errorResponse(pocketBaseError(403, requiresAuthRecordFrom(auth.claims.collection)));
  if (collection === "_superusers") return errorResponse(pocketBaseError(400, SUPERUSERS_DIRECTLY));

  const form = await readTextFields(request, ["newEmail"]);
  if (!form.ok) return errorResponse(form.error);
  const { newEmail } = form.value;
  if (!newEmail) return invalidBody({ newEmail: VALIDATION_ERRORS.required });
  if (newEmail.length > 255) return invalidBody({ newEmail: VALIDATION_ERRORS.length(1, 255) });
  if (!EMAIL.test(newEmail)) return invalidBody({ newEmail: VALIDATION_ERRORS.email });
  // Counted once the request would send mail or say whether an address is taken (the page shares the counter).
  const refused = await limited(ip, "request-email-change");
  if (refused) return refused;

  const requested = await requestEmailChange({ userId: auth.claims.id, newEmail });
  if (requested.ok) return noContent();
  if (requested.kind === "invalid") {
    const [message] = requested.fieldErrors.newEmail ?? [];
    return invalidBody({ newEmail: message === EMAIL_CHANGE_REFUSALS.same ? ERRORS.notInList : ERRORS.invalidNewEmail });
  }
  return errorResponse(pocketBaseError(400, "Failed to request email change."));
}

async function confirmChange(request: Request, collectionParam: string, ip: string): Promise<Response> {
  // Every confirmation is counted: each one may check a password (the page shares the counter).
  const refused = await limited(ip, "confirm-email-change");
  if (refused) return refused;
  const collection = authCollectionByNameOrId(collectionParam);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  if (collection === "_superusers") return errorResponse(pocketBaseError(400, SUPERUSERS_DIRECTLY));
  const form = await readTextFields(request, ["token", "password"]);
  if (!form.ok) return errorResponse(form.error);
  const { token, password } = form.value;
  const errors: Record<string, unknown> = {};
  if (!token) errors.token = VALIDATION_ERRORS.required;
  if (!password) errors.password = VALIDATION_ERRORS.required;
  else if (password.length > 100) errors.password = VALIDATION_ERRORS.length(1, 100);
  if (Object.keys(errors).length > 0) return invalidBody(errors);

  // As PocketBase's form: a token it cannot use also fails the password check (no record to check it against).
  const checked = await checkEmailChangeToken(token);
  if (!checked.ok) return invalidBody({ token: TOKEN_ERRORS[checked.problem], password: ERRORS.invalidPassword });
  const confirmed = await confirmEmailChange({ token, password });
  if (confirmed.ok) return noContent();
  if (confirmed.kind === "limited") return tooManyRequests(confirmed.retryAfterSeconds, confirmed.message);
  if (confirmed.kind === "invalid" && confirmed.fieldErrors.password) return invalidBody({ password: ERRORS.invalidPassword });
  // Used or taken between the check and the change: PocketBase's answer for a token it cannot use.
  if (confirmed.kind === "invalid") return errorResponse(pocketBaseError(400, VALIDATION_ERRORS.invalidToken.message));
  return errorResponse(pocketBaseError(400, "Failed to confirm email change."));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const endpoint = new URL(request.url).pathname.split("/").pop() as Endpoint;
  if (request.method !== "POST") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const { ip } = requestMeta(request, context);
  return endpoint === "request-email-change" ? requestChange(request, params.collection, ip) : confirmChange(request, params.collection, ip);
}

export function loader() {
  return errorResponse(pocketBaseError(405, "Method Not Allowed."));
}
