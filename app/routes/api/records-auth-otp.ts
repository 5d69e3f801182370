import type { Route } from "./+types/records-auth-otp";
import { authApiClientWithCode, ONE_TIME_CODE_REQUESTS, requestApiCode } from "~/features/accounts/index.server";
import { logger } from "~/lib/logger.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
import { AUTH_API_MESSAGES, pocketBaseError, readEmailForm, readOtpForm } from "~/services/records/auth-records.server";
import { authCollectionByNameOrId, type AuthCollectionName } from "~/services/records/tokens.server";
import { consumeRateLimit, RATE_LIMITS } from "~/services/security/rate-limit.server";
import { errorResponse, KIND_OF, NO_STORE, tooManyRequests } from "./record-auth.server";
import { apiAuthAnswer } from "./records-auth-answer.server";

// PocketBase's one-time codes by email (docs/decisions/0061):
//   POST /api/collections/{c}/request-otp   {email}                         → {otpId}
//   POST /api/collections/{c}/auth-with-otp {otpId, password: code} [mfaId] → {token, record}, or 401 {mfaId}
// request-otp answers an otpId for any address (an unknown one gets no mail) and mails in the background.

async function requestOtp(meta: RequestMeta, collection: AuthCollectionName): Promise<Response> {
  const limit = await consumeRateLimit(`one-time-code:${meta.ip || "desconocida"}`, ONE_TIME_CODE_REQUESTS);
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);
  const form = await readEmailForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  const { otpId, delivery } = requestApiCode(KIND_OF[collection], form.value.email);
  delivery.catch((error: unknown) => logger.error({ err: error }, "record API: could not send the one-time code"));
  return Response.json({ otpId }, { headers: NO_STORE });
}

async function authWithOtp(meta: RequestMeta, collection: AuthCollectionName): Promise<Response> {
  // The same per-IP limit as every sign-in (one counter with auth-with-password and /login).
  const limit = await consumeRateLimit(`login:${meta.ip || "desconocida"}`, RATE_LIMITS.signIn);
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);
  const form = await readOtpForm(meta.request);
  if (!form.ok) return errorResponse(form.error);
  const outcome = await authApiClientWithCode(meta, KIND_OF[collection], form.value);
  return apiAuthAnswer(outcome, collection);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return errorResponse(pocketBaseError(405, "Method Not Allowed."));
  const collection = authCollectionByNameOrId(params.collection);
  if (!collection) return errorResponse(pocketBaseError(404, AUTH_API_MESSAGES.missingAuthCollection));
  const meta = requestMeta(request, context);
  return new URL(request.url).pathname.endsWith("/request-otp") ? requestOtp(meta, collection) : authWithOtp(meta, collection);
}

export function loader() {
  return errorResponse(pocketBaseError(405, "Method Not Allowed."));
}
