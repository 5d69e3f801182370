import type { ApiAuthOutcome } from "~/features/accounts/index.server";
import { AUTH_API_MESSAGES, authRecordJson, pocketBaseError } from "~/services/records/auth-records.server";
import { signRecordToken, type AuthCollectionName } from "~/services/records/tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { errorResponse, NO_STORE, tooManyRequests } from "./record-auth.server";

// How auth-with-password and auth-with-otp answer a sign-in's outcome (docs/decisions/0061). A
// first step that owes a second one is PocketBase's bare 401 `{mfaId}` (apis/record_helpers.go).

const MFA_REFUSALS = {
  expired: AUTH_API_MESSAGES.invalidMfa,
  "other-account": AUTH_API_MESSAGES.otherMfa,
  "same-method": AUTH_API_MESSAGES.sameMfaMethod,
} as const;

/** `{token, record}` of a signed-in client, or the outcome's refusal. */
export function apiAuthAnswer(outcome: ApiAuthOutcome, collection: AuthCollectionName): Response {
  switch (outcome.outcome) {
    case "signed-in": {
      const { account, sessionId, sessionExpiresAt } = outcome.session;
      const token = signRecordToken({ id: account.id, collection, sessionId, sessionExpiresAt }, { secret: getAuthSecret() });
      return Response.json({ record: authRecordJson(collection, account), token }, { headers: NO_STORE });
    }
    case "mfa":
      return Response.json({ mfaId: outcome.mfaId }, { status: 401, headers: NO_STORE });
    case "limited":
      return tooManyRequests(outcome.retryAfterSeconds, outcome.message);
    case "refused":
      if (outcome.reason === "credentials") return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.failedToAuthenticate));
      if (outcome.reason === "code") return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.invalidOtp));
      return errorResponse(pocketBaseError(400, MFA_REFUSALS[outcome.reason]));
  }
}
