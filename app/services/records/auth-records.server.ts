import { readFieldsBody } from "~/lib/request-body";
import { formatFilterDate } from "~/db/record-filter.server";
import { AUTH_COLLECTIONS, type AuthCollectionName } from "./tokens.server";

// PocketBase's auth endpoints as the record API answers them (apis/record_auth_with_password.go,
// record_auth_refresh.go, record_auth_methods.go, record_helpers.go): the literal messages, the
// shapes of an auth record, of `{token, record}` and of the auth methods, and how a body is read.
// The route owns HTTP and the accounts feature owns sessions; this module only shapes.

export const AUTH_API_MESSAGES = {
  missingAuthCollection: "Missing or invalid auth collection context.",
  loadBody: "An error occurred while loading the submitted data.",
  validateBody: "An error occurred while validating the submitted data.",
  failedToAuthenticate: "Failed to authenticate.",
  requiresToken: "The request requires valid record authorization token.",
  tooManyRequests: "Too Many Requests.",
  tooLarge: "Request entity too large.",
  invalidResetToken: "Invalid or expired password reset token.",
  failedToSetPassword: "Failed to set new password.",
  invalidVerificationToken: "Invalid or expired verification token.",
  superusersVerified: "All superusers are verified by default.",
  oauth2Disabled: "The collection is not configured to allow OAuth2 authentication.",
  oauth2Token: "Failed to fetch OAuth2 token.",
  oauth2User: "Failed to fetch OAuth2 user.",
  invalidOtp: "Invalid or expired OTP",
  invalidMfa: "Invalid or expired MFA session.",
  otherMfa: "Invalid MFA session.",
  sameMfaMethod: "A different authentication method is required.",
} as const;

/** PocketBase's `data.{field}` entries (ozzo-validation's codes and messages). */
export const VALIDATION_ERRORS = {
  required: { code: "validation_required", message: "Cannot be blank." },
  email: { code: "validation_is_email", message: "Must be a valid email address." },
  mismatch: { code: "validation_values_mismatch", message: "Values don't match." },
  invalidToken: { code: "validation_invalid_token", message: "Invalid or expired token." },
  tokenCollection: { code: "validation_token_collection_mismatch", message: "The provided token is for different auth collection." },
  tokenClaims: { code: "validation_invalid_token_claims", message: "Missing email token claim." },
  tokenEmail: { code: "validation_token_email_mismatch", message: "The record email doesn't match with the requested token claims." },
  length: (min: number, max: number) => ({ code: "validation_length_out_of_range", message: `The length must be between ${min} and ${max}.` }),
  provider: (name: string) => ({ code: "validation_invalid_provider", message: `Provider with name ${name} is missing or is not enabled.` }),
} as const;

export const requiresAuthRecordFrom = (collection: string) => `The request requires auth record from ${collection} collection.`;

export interface PocketBaseError {
  status: number;
  message: string;
  data: Record<string, unknown>;
}

export function pocketBaseError(status: number, message: string, data: Record<string, unknown> = {}): PocketBaseError {
  return { status, message, data };
}

/** An account as a record of an auth collection (the email is always shown to its owner, as PocketBase does). */
export interface AuthAccount {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  created: Date;
  updated: Date;
}

export function authRecordJson(collection: AuthCollectionName, account: AuthAccount): Record<string, unknown> {
  const { id, name } = AUTH_COLLECTIONS[collection];
  return {
    collectionId: id,
    collectionName: name,
    id: account.id,
    email: account.email,
    emailVisibility: false,
    name: account.name,
    verified: account.verified,
    // Forja keeps no avatars; PocketBase's default `users` collection has the field.
    avatar: "",
    created: formatFilterDate(account.created),
    updated: formatFilterDate(account.updated),
  };
}

/** The form of auth-with-password; `identityField` may only name the one identity field, email. */
export type PasswordForm = { ok: true; identity: string; password: string; mfaId: string } | { ok: false; error: PocketBaseError };

/** PocketBase reads a second step's mfaId from the query (where the SDK puts it) or else the body. */
function mfaIdOf(request: Request, fields: Record<string, unknown>): string {
  const fromQuery = new URL(request.url).searchParams.get("mfaId");
  if (fromQuery) return fromQuery;
  return typeof fields.mfaId === "string" ? fields.mfaId : "";
}

const blank = { code: "validation_required", message: "Cannot be blank." };

/** PocketBase's binding and validation of `{identity, password, identityField?}`. */
export async function readPasswordForm(request: Request): Promise<PasswordForm> {
  const fields = await readFieldsBody(request);
  if (fields === "too-large") return { ok: false, error: pocketBaseError(413, AUTH_API_MESSAGES.tooLarge) };
  if (!fields) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  for (const name of ["identity", "password", "identityField"]) {
    const value = fields[name];
    if (value !== undefined && value !== null && typeof value !== "string") return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  }
  const [identity, password, identityField] = [fields.identity, fields.password, fields.identityField] as (string | null | undefined)[];
  const errors: Record<string, unknown> = {};
  if (!identity) errors.identity = blank;
  else if (identity.length > 255) errors.identity = { code: "validation_length_out_of_range", message: "The length must be between 1 and 255." };
  if (!password) errors.password = blank;
  else if (password.length > 255) errors.password = { code: "validation_length_out_of_range", message: "The length must be between 1 and 255." };
  if (identityField && identityField !== "email") errors.identityField = { code: "validation_in_invalid", message: "Must be a valid value." };
  if (Object.keys(errors).length > 0) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.validateBody, errors) };
  return { ok: true, identity: identity!, password: password!, mfaId: mfaIdOf(request, fields) };
}

/** A provider as auth-methods lists it (the accounts feature builds its state, PKCE pair and authorize URL). */
export interface OAuthProviderInfo {
  name: string;
  displayName: string;
  state: string;
  authURL: string;
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: string;
}

/** PocketBase 0.23+'s auth-methods answer, with its legacy fields. */
/** What auth-methods says of the one-time codes and the second step (seconds; docs/decisions/0061). */
export interface CodeMethodsInfo {
  otpSeconds: number;
  mfa: { enabled: boolean; seconds: number };
}

export function authMethodsJson(providers: readonly OAuthProviderInfo[], codes: CodeMethodsInfo): Record<string, unknown> {
  const infos = providers.map((provider) => ({
    name: provider.name,
    displayName: provider.displayName,
    logo: "",
    state: provider.state,
    authURL: provider.authURL,
    authUrl: provider.authURL,
    codeVerifier: provider.codeVerifier,
    codeChallenge: provider.codeChallenge,
    codeChallengeMethod: provider.codeChallengeMethod,
  }));
  return {
    password: { identityFields: ["email"], enabled: true },
    oauth2: { providers: infos, enabled: infos.length > 0 },
    mfa: { enabled: codes.mfa.enabled, duration: codes.mfa.enabled ? codes.mfa.seconds : 0 },
    otp: { enabled: true, duration: codes.otpSeconds },
    authProviders: infos.map((info) => ({ ...info, logo: "" })),
    usernamePassword: false,
    emailPassword: true,
  };
}

/** Top-level `fields` trimming (the SDK asks auth-methods for "mfa,otp,password,oauth2"). */
export function pickFields(json: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  const names = (fields ?? "")
    .split(",")
    .map((name) => name.split(":")[0]!.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes("*")) return json;
  return Object.fromEntries(Object.entries(json).filter(([name]) => names.includes(name)));
}

type FormResult<T> = { ok: true; value: T } | { ok: false; error: PocketBaseError };

/** Reads the body's fields; a value that is not text (when `text` names it) is a loading error, as Go's binding. */
async function readFields(request: Request, text: readonly string[]): Promise<FormResult<Record<string, unknown>>> {
  const fields = await readFieldsBody(request);
  if (fields === "too-large") return { ok: false, error: pocketBaseError(413, AUTH_API_MESSAGES.tooLarge) };
  if (!fields) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  for (const name of text) {
    const value = fields[name];
    if (value !== undefined && value !== null && typeof value !== "string") return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  }
  return { ok: true, value: fields };
}

const textOf = (value: unknown) => (typeof value === "string" ? value : "");
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `{email}` of request-password-reset and request-verification. */
export async function readEmailForm(request: Request): Promise<FormResult<{ email: string }>> {
  const fields = await readFields(request, ["email"]);
  if (!fields.ok) return fields;
  const email = textOf(fields.value.email);
  let error: { code: string; message: string } | undefined;
  if (!email) error = VALIDATION_ERRORS.required;
  else if (email.length > 255) error = VALIDATION_ERRORS.length(1, 255);
  else if (!EMAIL.test(email)) error = VALIDATION_ERRORS.email;
  if (error) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.validateBody, { email: error }) };
  return { ok: true, value: { email } };
}

/** `{token, password, passwordConfirm}` of confirm-password-reset, unvalidated (the route checks the token with the rest). */
export async function readConfirmResetForm(request: Request): Promise<FormResult<{ token: string; password: string; passwordConfirm: string }>> {
  const fields = await readFields(request, ["token", "password", "passwordConfirm"]);
  if (!fields.ok) return fields;
  return { ok: true, value: { token: textOf(fields.value.token), password: textOf(fields.value.password), passwordConfirm: textOf(fields.value.passwordConfirm) } };
}

/** `{otpId, password}` of auth-with-otp (PocketBase's lengths: 1–255 and 1–71), with a second step's mfaId. */
export async function readOtpForm(request: Request): Promise<FormResult<{ otpId: string; code: string; mfaId: string }>> {
  const fields = await readFields(request, ["otpId", "password", "mfaId"]);
  if (!fields.ok) return fields;
  const otpId = textOf(fields.value.otpId);
  const code = textOf(fields.value.password);
  const errors: Record<string, unknown> = {};
  if (!otpId) errors.otpId = VALIDATION_ERRORS.required;
  else if (otpId.length > 255) errors.otpId = VALIDATION_ERRORS.length(1, 255);
  if (!code) errors.password = VALIDATION_ERRORS.required;
  else if (code.length > 71) errors.password = VALIDATION_ERRORS.length(1, 71);
  if (Object.keys(errors).length > 0) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.validateBody, errors) };
  return { ok: true, value: { otpId, code, mfaId: mfaIdOf(request, fields.value) } };
}

/** `{token}` of confirm-verification, unvalidated. */
export async function readTokenForm(request: Request): Promise<FormResult<{ token: string }>> {
  const fields = await readFields(request, ["token"]);
  if (!fields.ok) return fields;
  return { ok: true, value: { token: textOf(fields.value.token) } };
}

export interface OAuth2Form {
  provider: string;
  code: string;
  codeVerifier: string;
  redirectURL: string;
}

/** `{provider, code, codeVerifier, redirectURL, createData}` of auth-with-oauth2 (`redirectUrl` is PocketBase's older name). */
export async function readOAuth2Form(request: Request, isProvider: (name: string) => boolean): Promise<FormResult<OAuth2Form>> {
  const fields = await readFields(request, ["provider", "code", "codeVerifier", "redirectURL", "redirectUrl"]);
  if (!fields.ok) return fields;
  const createData = fields.value.createData;
  if (createData !== undefined && createData !== null && (typeof createData !== "object" || Array.isArray(createData))) {
    return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody) };
  }
  const form = {
    provider: textOf(fields.value.provider),
    code: textOf(fields.value.code),
    codeVerifier: textOf(fields.value.codeVerifier),
    redirectURL: textOf(fields.value.redirectURL) || textOf(fields.value.redirectUrl),
  };
  const errors: Record<string, unknown> = {};
  if (!form.provider) errors.provider = VALIDATION_ERRORS.required;
  else if (form.provider.length > 100) errors.provider = VALIDATION_ERRORS.length(0, 100);
  else if (!isProvider(form.provider)) errors.provider = VALIDATION_ERRORS.provider(form.provider);
  if (!form.code) errors.code = VALIDATION_ERRORS.required;
  // PocketBase answers its validation errors here with the loading message.
  if (Object.keys(errors).length > 0) return { ok: false, error: pocketBaseError(400, AUTH_API_MESSAGES.loadBody, errors) };
  return { ok: true, value: form };
}

/** PocketBase's `meta` of auth-with-oauth2 (tools/auth's AuthUser, with its legacy `avatarUrl`, and `isNew`). */
export function oauth2MetaJson(meta: { avatarURL: string; expiry: Date | null; [field: string]: unknown }): Record<string, unknown> {
  const { expiry, ...user } = meta;
  return { ...user, avatarUrl: meta.avatarURL, expiry: expiry ? formatFilterDate(expiry) : "" };
}
