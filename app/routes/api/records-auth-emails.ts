import type { Route } from "./+types/records-auth-emails";
import {
  checkApiResetToken,
  checkApiVerificationToken,
  confirmApiVerification,
  isWeakApiPassword,
  requestApiPasswordReset,
  requestApiVerification,
  resetApiPassword,
  type ApiTokenProblem,
} from "~/features/accounts/index.server";
import { logger } from "~/lib/logger.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
import { AUTH_API_MESSAGES, pocketBaseError, readConfirmResetForm, readEmailForm, readTokenForm, VALIDATION_ERRORS } from "~/services/records/auth-records.server";
import { authCollectionByNameOrId, type AuthCollectionName } from "~/services/records/tokens.server";
import { consumeRateLimit, RATE_LIMITS } from "~/services/security/rate-limit.server";
import { errorResponse, KIND_OF, noContent, tooManyRequests } from "./record-auth.server";

// PocketBase's emailed-link endpoints of the auth collections (docs/decisions/0018), over Forja's own
// reset and confirmation emails (the token in the emailed link is PocketBase's `token`):
//   POST /api/collections/{c}/request-password-reset  {email}                            → 204
//   POST /api/collections/{c}/confirm-password-reset  {token, password, passwordConfirm} → 204
//   POST /api/collections/users/request-verification  {email}                            → 204
//   POST /api/collections/users/confirm-verification  {token}                            → 204
// A request answers 204 whether or not the email has an account, and sends in the background.

type Endpoint = "request-password-reset" | "confirm-password-reset" | "request-verification" | "confirm-verification";

/** As the screens' limits: /recuperar and /recuperar/nueva share one counter per IP; confirmation emails have their own. */
async function limited(scope: "password-reset" | "email-confirmation", ip: string): Promise<Response | null> {
  const limit = await consumeRateLimit(`${scope}:${ip || "desconocida"}`, RATE_LIMITS.passwordReset);
  return limit.allowed ? null : tooManyRequests(limit.retryAfterSeconds);
}

/** Sends after the answer, so its timing says nothing about the account. */
function inBackground(work: Promise<void>, what: string): void {
  work.catch((error: unknown) => logger.error({ err: error }, `record API: could not send the ${what} email`));
}

const TOKEN_ERRORS: Record<ApiTokenProblem, { code: string; message: string }> = {
  invalid: VALIDATION_ERRORS.invalidToken,
  "other-collection": VALIDATION_ERRORS.tokenCollection,
  "missing-email": VALIDATION_ERRORS.tokenClaims,
  "email-mismatch": VALIDATION_ERRORS.tokenEmail,
};

const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

async function requestPasswordReset(meta: RequestMeta, collection: AuthCollectionName): Promise<Response> {
  const refused = await limited("password-reset", meta.ip);
  if (refused) return refused;
  const form = await readEmailForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  inBackground(requestApiPasswordReset(KIND_OF[collection], form.value.email), "password reset");
  return noContent();
}

async function confirmPasswordReset(meta: RequestMeta, collection: AuthCollectionName): Promise<Response> {
  const refused = await limited("password-reset", meta.ip);
  if (refused) return refused;
  const form = await readConfirmResetForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  const { token, password, passwordConfirm } = form.value;

  const errors: Record<string, unknown> = {};
  if (!token) errors.token = VALIDATION_ERRORS.required;
  else {
    const problem = await checkApiResetToken(KIND_OF[collection], token);
    if (problem) errors.token = TOKEN_ERRORS[problem];
  }
  if (!password) errors.password = VALIDATION_ERRORS.required;
  else if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) errors.password = VALIDATION_ERRORS.length(PASSWORD_LENGTH.min, PASSWORD_LENGTH.max);
  // Forja's own rule, the same as /recuperar/nueva's, in its words.
  else if (isWeakApiPassword(password)) errors.password = { code: "validation_common_password", message: "Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra." };
  if (!passwordConfirm) errors.passwordConfirm = VALIDATION_ERRORS.required;
  else if (passwordConfirm !== password) errors.passwordConfirm = VALIDATION_ERRORS.mismatch;
  if (Object.keys(errors).length > 0) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.validateBody, errors));

  const reset = await resetApiPassword(meta, { token, password });
  // The token was used or expired since the check: PocketBase's answer for a token it cannot find.
  if (!reset.ok) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.invalidResetToken));
  return noContent();
}

async function requestVerification(meta: RequestMeta): Promise<Response> {
  const refused = await limited("email-confirmation", meta.ip);
  if (refused) return refused;
  const form = await readEmailForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  inBackground(requestApiVerification(form.value.email), "confirmation");
  return noContent();
}

async function confirmVerification(meta: RequestMeta): Promise<Response> {
  const form = await readTokenForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  const { token } = form.value;
  const problem = token ? await checkApiVerificationToken(token) : null;
  if (!token || problem) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.validateBody, { token: token ? TOKEN_ERRORS[problem!] : VALIDATION_ERRORS.required }));
  const confirmed = await confirmApiVerification(meta, token);
  if (!confirmed.ok) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.invalidVerificationToken));
  return noContent();
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const endpoint = new URL(request.url).pathname.split("/").pop() as Endpoint;
  if (request.method !== "POST") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const collection = authCollectionByNameOrId(params.collection);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  const meta = requestMeta(request, context);
  if (endpoint === "request-password-reset") return requestPasswordReset(meta, collection);
  if (endpoint === "confirm-password-reset") return confirmPasswordReset(meta, collection);
  // Staff accounts are confirmed when they are made (npm run admin:create), as PocketBase's superusers.
  if (collection === "_superusers") return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.superusersVerified));
  return endpoint === "request-verification" ? requestVerification(meta) : confirmVerification(meta);
}

export function loader() {
  return errorResponse(pocketBaseError(405, "Method Not Allowed."));
}
