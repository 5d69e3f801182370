import type { RouterContextProvider } from "react-router";
import { readFieldsBody } from "~/lib/request-body";
import type { Failure } from "~/lib/result";
import { AUTH_API_MESSAGES, pocketBaseError, type PocketBaseError } from "~/services/records/auth-records.server";
import { errorResponse } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// PocketBase's validation body for the settings endpoints: `data` nested as the JSON it validates
// ({smtp: {port: {code, message}}}), each message in Spanish.

export function validationBody(failure: Failure): PocketBaseError {
  if (failure.kind !== "invalid") return pocketBaseError(400, AUTH_API_MESSAGES.validateBody);
  const data: Record<string, unknown> = {};
  for (const [path, messages] of Object.entries(failure.fieldErrors)) {
    const parts = path.split(".");
    let node = data;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = { code: "validation_invalid_value", message: messages.join(" ") };
  }
  if (failure.formErrors.length) data.settings = { code: "validation_invalid_value", message: failure.formErrors.join(" ") };
  return pocketBaseError(400, AUTH_API_MESSAGES.validateBody, data);
}

/** A superuser's request body (JSON or form fields), or the refusal to answer: 401/403, 413, 400. */
export async function superuserBody(request: Request, context: Readonly<RouterContextProvider>): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; response: Response }> {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access;
  const body = await readFieldsBody(request);
  if (body === "too-large") return { ok: false, response: errorResponse(pocketBaseError(413, AUTH_API_MESSAGES.tooLarge)) };
  if (body === null) return { ok: false, response: errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.loadBody)) };
  return { ok: true, body };
}
