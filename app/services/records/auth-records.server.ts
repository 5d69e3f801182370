import { randomBytes, createHash } from "node:crypto";
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
    created: formatFilterDate(account.created),
    updated: formatFilterDate(account.updated),
  };
}

/** The form of auth-with-password; `identityField` may only name the one identity field, email. */
export type PasswordForm = { ok: true; identity: string; password: string } | { ok: false; error: PocketBaseError };

/** A JSON object or a form (urlencoded or multipart) as flat fields; null when it cannot be read. */
export async function readBodyFields(request: Request): Promise<Record<string, unknown> | null> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  try {
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await request.formData();
      return Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
    }
    const text = await request.text();
    if (text.trim() === "") return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const blank = { code: "validation_required", message: "Cannot be blank." };

/** PocketBase's binding and validation of `{identity, password, identityField?}`. */
export async function readPasswordForm(request: Request): Promise<PasswordForm> {
  const fields = await readBodyFields(request);
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
  return { ok: true, identity: identity!, password: password! };
}

export interface OAuthProviderInfo {
  id: string;
  name: string;
}

/** PocketBase 0.23+'s auth-methods answer, with its legacy fields. */
export function authMethodsJson(providers: readonly OAuthProviderInfo[], startUrl: (id: string) => string): Record<string, unknown> {
  const infos = providers.map((provider) => {
    const state = randomBytes(22).toString("base64url").slice(0, 30);
    const codeVerifier = randomBytes(32).toString("base64url").slice(0, 43);
    const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
    const authURL = startUrl(provider.id);
    return { name: provider.id, displayName: provider.name, logo: "", state, authURL, authUrl: authURL, codeVerifier, codeChallenge, codeChallengeMethod: "S256" };
  });
  return {
    password: { identityFields: ["email"], enabled: true },
    oauth2: { providers: infos, enabled: infos.length > 0 },
    mfa: { enabled: false, duration: 0 },
    otp: { enabled: false, duration: 0 },
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
