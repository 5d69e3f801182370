import type { Route } from "./+types/auth";
import {
  API_ACCOUNT_REFUSALS,
  changeApiPassword,
  isBlockedCustomerWithPassword,
  redeemApiProviderCode,
  registerApiCustomer,
  resetApiPasswordSignedIn,
} from "~/features/accounts/api-accounts.server";
import { signInApiClient, type ApiSession } from "~/features/accounts/api-sessions.server";
import { personNameField, newPasswordField } from "~/features/accounts/forms";
import { getProvider } from "~/features/accounts/providers.server";
import { confirmApiVerification, requestApiPasswordReset, requestApiVerification } from "~/features/accounts/records-users-auth.server";
import { getCurrentUserPayload } from "~/features/accounts/users-me.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
import { failureHeaders, failureMessages, type Failure } from "~/lib/result";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import {
  STRAPI_MESSAGES,
  invalidBody,
  issueJwt,
  rateLimited,
  readBody,
  readJwtSession,
  strapiError,
  strapiJson,
  validateBody,
  validationError,
} from "./strapi-auth.server";

// The seed's content-service auth API under /api/auth (Strapi's users-permissions shapes,
// docs/decisions/0017), a thin adapter over the accounts feature — the same code, rules and per-IP
// limits as /login, /registro, /recuperar and /cuenta:
//   POST /api/auth/local                    {identifier, password}                          → {jwt, user}
//   POST /api/auth/local/register           {username, email, password}                     → {jwt, user}
//   POST /api/auth/forgot-password          {email}                                         → {ok: true}
//   POST /api/auth/reset-password           {code, password, passwordConfirmation}          → {jwt, user}
//   POST /api/auth/change-password (Bearer) {currentPassword, password, passwordConfirmation} → {jwt, user}
//   POST /api/auth/send-email-confirmation  {email}                                         → {email, sent: true}
//   GET  /api/auth/email-confirmation?confirmation=…                                        → redirect
//   GET  /api/auth/{provider}/callback?access_token=…                                      → {jwt, user}
// Authenticated by `Authorization: Bearer <jwt>` or anonymous: no cookie is read or set, so no
// Origin check applies. Errors: {data: null, error: {status, name, message, details}}.

/** `{jwt, user}` for a new API session. */
async function signedInAnswer(apiSession: ApiSession): Promise<Response> {
  const user = await getCurrentUserPayload(apiSession.account.id, []);
  return strapiJson({ jwt: issueJwt(apiSession), user });
}

/** A refusal the feature named in its own words (Spanish) that the API has no literal for. */
function applicationError(failure: Failure): Response {
  const { formErrors, fieldErrors } = failureMessages(failure);
  return strapiError("ApplicationError", [...formErrors, ...Object.values(fieldErrors).flat()].join(" ") || "No pudimos completar la operación.");
}

async function local(meta: RequestMeta): Promise<Response> {
  const limited = await rateLimited("login", RATE_LIMITS.signIn, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  const form = validateBody(body, { identifier: { required: true }, password: { required: true } });
  if (!form.ok) return form.response;
  // Forja signs in by email only: its names are not unique, so any other identifier matches nobody.
  const input = { email: form.value.identifier!.trim().toLowerCase(), password: form.value.password! };
  const signedIn = await signInApiClient(meta, "customer", input);
  if (signedIn.ok) return signedInAnswer(signedIn.value);
  if (signedIn.kind === "limited") return strapiError("RateLimitError", signedIn.message, {}, failureHeaders(signedIn));
  if (await isBlockedCustomerWithPassword(input)) return strapiError("ApplicationError", STRAPI_MESSAGES.blocked);
  return strapiError("ValidationError", STRAPI_MESSAGES.invalidCredentials);
}

async function register(meta: RequestMeta): Promise<Response> {
  const limited = await rateLimited("register", RATE_LIMITS.register, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  // Strapi's register.allowedFields: Forja's profile fields, nothing else (no role, no `confirmed`).
  const form = validateBody(
    body,
    {
      username: { required: true, rule: personNameField },
      email: { required: true, email: true },
      password: { required: true, rule: newPasswordField },
      company: {},
      phone: {},
    },
    { refuseUnknown: true },
  );
  if (!form.ok) return form.response;
  const { username, email, password, company, phone } = form.value;
  const registered = await registerApiCustomer(meta, { name: username!, email: email!, password: password!, company, phone });
  if (registered.ok) return signedInAnswer(registered.value);
  if (registered.kind === "invalid" && registered.formErrors.includes(API_ACCOUNT_REFUSALS.emailTaken)) return strapiError("ApplicationError", STRAPI_MESSAGES.emailTaken);
  return applicationError(registered);
}

async function forgotPassword(meta: RequestMeta): Promise<Response> {
  const limited = await rateLimited("password-reset", RATE_LIMITS.passwordReset, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  const form = validateBody(body, { email: { required: true, email: true } });
  if (!form.ok) return form.response;
  // Forja's reset email to a customer's address (the email of /recuperar); the answer never says
  // whether the email has an account.
  await requestApiPasswordReset("customer", form.value.email!);
  return strapiJson({ ok: true });
}

/** A new password and its confirmation, as Strapi checks them, then Forja's rules for a password. */
function newPasswordForm<K extends string>(body: Record<string, unknown>, others: Record<K, { required: true }>) {
  const rules = { ...others, password: { required: true, rule: newPasswordField }, passwordConfirmation: { required: true } } as Record<K | "password" | "passwordConfirmation", { required: true; rule?: typeof newPasswordField }>;
  const form = validateBody(body, rules);
  if (!form.ok) return form;
  if (form.value.password !== form.value.passwordConfirmation) {
    return { ok: false as const, response: validationError([{ path: ["passwordConfirmation"], message: STRAPI_MESSAGES.passwordsDoNotMatch, name: "ValidationError" }]) };
  }
  return form;
}

async function resetPassword(meta: RequestMeta): Promise<Response> {
  const limited = await rateLimited("password-reset", RATE_LIMITS.passwordReset, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  const form = newPasswordForm(body, { code: { required: true } });
  if (!form.ok) return form.response;
  const reset = await resetApiPasswordSignedIn(meta, { code: form.value.code!, password: form.value.password! });
  if (!reset.ok) return strapiError("ValidationError", STRAPI_MESSAGES.incorrectCode);
  return signedInAnswer(reset.value);
}

async function changePassword(meta: RequestMeta): Promise<Response> {
  const current = await readJwtSession(meta.request);
  if (!current) return strapiError("UnauthorizedError", STRAPI_MESSAGES.missingCredentials);
  // Checking the current password is a sign-in attempt: the sign-in limit, in its own bucket.
  const limited = await rateLimited("change-password", RATE_LIMITS.signIn, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  const form = newPasswordForm(body, { currentPassword: { required: true } });
  if (!form.ok) return form.response;
  if (form.value.currentPassword === form.value.password) return strapiError("ValidationError", STRAPI_MESSAGES.samePassword);
  const changed = await changeApiPassword(meta, current, { currentPassword: form.value.currentPassword!, newPassword: form.value.password! });
  if (changed.ok) return signedInAnswer(changed.value);
  if (changed.kind === "invalid" && changed.formErrors.includes(API_ACCOUNT_REFUSALS.wrongPassword)) return strapiError("ValidationError", STRAPI_MESSAGES.wrongCurrentPassword);
  return applicationError(changed);
}

async function sendEmailConfirmation(meta: RequestMeta): Promise<Response> {
  // It sends an email to any address: the limit of the other emailed link, in its own bucket.
  const limited = await rateLimited("email-confirmation", RATE_LIMITS.passwordReset, meta.ip);
  if (limited) return limited;
  const body = await readBody(meta.request);
  if (!body || body === "too-large") return invalidBody(body);
  const form = validateBody(body, { email: { required: true, email: true } });
  if (!form.ok) return form.response;
  // Sent only to an unconfirmed customer; the answer is the same for anyone (never reveals an account).
  await requestApiVerification(form.value.email!);
  return strapiJson({ email: form.value.email, sent: true });
}

/** The confirmation link's token (Forja mails /cuenta/confirmar?token=…; the same token works here). */
async function emailConfirmation(meta: RequestMeta): Promise<Response> {
  const token = new URL(meta.request.url).searchParams.get("confirmation") ?? "";
  if (!token) return strapiError("ValidationError", STRAPI_MESSAGES.invalidToken);
  const confirmed = await confirmApiVerification(meta, token);
  if (!confirmed.ok) return strapiError("ValidationError", STRAPI_MESSAGES.invalidToken);
  // Strapi redirects to its "email confirmation redirection"; Forja's is the account page.
  return new Response(null, { status: 302, headers: { Location: "/cuenta?confirmado=1", "Cache-Control": "no-store" } });
}

/** The second half of a provider sign-in: the one-time code the connect redirect handed over. */
async function providerCallback(meta: RequestMeta, providerId: string): Promise<Response> {
  if (!getProvider(providerId)) return strapiError("ApplicationError", STRAPI_MESSAGES.providerDisabled);
  const code = new URL(meta.request.url).searchParams.get("access_token") ?? "";
  const apiSession = code ? await redeemApiProviderCode(code, providerId) : null;
  if (!apiSession) return strapiError("ApplicationError", "Invalid access_token");
  return signedInAnswer(apiSession);
}

const POST_ENDPOINTS: Record<string, (meta: RequestMeta) => Promise<Response>> = {
  local,
  "local/register": register,
  "forgot-password": forgotPassword,
  "reset-password": resetPassword,
  "change-password": changePassword,
  "send-email-confirmation": sendEmailConfirmation,
};

function notFound(): Response {
  return strapiError("NotFoundError", STRAPI_MESSAGES.notFound);
}

export function action({ request, params, context }: Route.ActionArgs) {
  const endpoint = request.method === "POST" ? POST_ENDPOINTS[params["*"] ?? ""] : undefined;
  return endpoint ? endpoint(requestMeta(request, context)) : notFound();
}

export function loader({ request, params, context }: Route.LoaderArgs) {
  const path = params["*"] ?? "";
  const meta = requestMeta(request, context);
  if (path === "email-confirmation") return emailConfirmation(meta);
  const provider = /^([^/]+)\/callback$/.exec(path);
  if (provider) return providerCallback(meta, provider[1]!);
  return notFound();
}
