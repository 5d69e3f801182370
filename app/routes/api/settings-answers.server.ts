import type { Failure } from "~/lib/result";
import { AUTH_API_MESSAGES, pocketBaseError, type PocketBaseError } from "~/services/records/auth-records.server";

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
