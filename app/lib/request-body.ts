import { parse } from "@conform-to/react";
import { data } from "react-router";

// Reading a request body with a bound: the bytes are counted as they arrive and reading stops past
// the limit, so a huge body costs at most `maxBytes` of memory. For the API endpoints that take a
// small JSON object or form (sign-in, subscriptions, redirects); uploads have their own streamed limits.

/** The body as text (UTF-8), read up to `maxBytes`: "too-large" past it, null when it cannot be read. */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string | "too-large" | null> {
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes === null || bytes === "too-large") return bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

async function readBoundedBytes(request: Request, maxBytes: number): Promise<Buffer | "too-large" | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return "too-large";
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return "too-large";
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}

/** What a small form or JSON object endpoint reads: at most 64 KB. */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * A JSON object (an empty body is `{}`) or a form (urlencoded or multipart, its text fields), read
 * up to `maxBytes`: "too-large" past it, null when it is not one of those.
 */
export async function readFieldsBody(request: Request, maxBytes = SMALL_BODY_BYTES): Promise<Record<string, unknown> | "too-large" | null> {
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.toLowerCase();
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes === null || bytes === "too-large") return bytes;
  try {
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
      const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
      return isStorableValue(fields) ? fields : null;
    }
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.trim() === "") return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) && isStorableValue(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// ——— Forms posted to a page's action ———
// Every action reads its form through readForm (or readFormBody when it answers refusals itself):
// a body that is not the form it claims to be is the sender's mistake, answered 400 or 415 with a
// Spanish message, never a thrown parser error (a 500). See docs/decisions/0035.

export const FORM_BODY_MESSAGES = {
  type: "Este formulario se envía desde su página. Vuelva a ella y envíelo de nuevo.",
  unreadable: "No pudimos leer el formulario. Vuelva a la página y envíelo de nuevo.",
  characters: "El formulario trae caracteres que no son texto (por ejemplo, un carácter nulo). Revise lo que escribió y envíelo de nuevo.",
  fileName: "El nombre de un archivo no es válido o es demasiado largo (más de 1,024 caracteres). Cámbielo y adjúntelo de nuevo.",
} as const;

/**
 * How long a file name the sender gives may be. Longer names than a file system allows (255) are
 * still someone's real name for the file: they are accepted and stored shortened, keeping the
 * extension (features/solicitudes/store.server.ts); past this, the name is not a name.
 */
export const MAX_FILE_NAME_LENGTH = 1_024;

export type FormBody = { ok: true; form: FormData } | { ok: false; status: 400 | 415; message: string };

/** NUL and the other control characters no one types (tab, line feed and carriage return are text). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** True when `text` can be stored as text: PostgreSQL refuses NUL, and no person types the other controls. */
export function isStorableText(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text);
}

/** True when every string in `value` (a parsed JSON value: keys, items and nested objects too) is storable text. */
export function isStorableValue(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (!value || typeof value !== "object") return true;
  if (depth > 64) return false;
  if (Array.isArray(value)) return value.every((item) => isStorableValue(item, depth + 1));
  return Object.entries(value).every(([key, item]) => isStorableText(key) && isStorableValue(item, depth + 1));
}

/** A file name a person could have given: no control characters, at most MAX_FILE_NAME_LENGTH characters. */
export function isAcceptableFileName(name: string): boolean {
  return name.length <= MAX_FILE_NAME_LENGTH && isStorableText(name);
}

const isFormType = (type: string) => type.startsWith("application/x-www-form-urlencoded") || (type.startsWith("multipart/form-data") && /;\s*boundary=[^;\s]/.test(type));

/**
 * The posted form: urlencoded or multipart (with its boundary), readable, with no control
 * characters in its names and values, and file names a person could have given. Otherwise the
 * reason, as a status (415 for another content type, 400 otherwise) and a Spanish message.
 */
export async function readFormBody(request: Request): Promise<FormBody> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase().trim();
  if (!isFormType(type)) {
    // A POST with no body at all (a bare button, a script) is an empty form.
    if (type === "") {
      const bytes = await readBoundedBytes(request, 0);
      if (bytes !== null && bytes !== "too-large") return { ok: true, form: new FormData() };
    }
    return { ok: false, status: 415, message: FORM_BODY_MESSAGES.type };
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, message: FORM_BODY_MESSAGES.unreadable };
  }
  const problem = formProblem(form);
  return problem ? { ok: false, status: 400, message: problem } : { ok: true, form };
}

/**
 * Why a form read from a body cannot be used, as the Spanish message, or null: control characters
 * in a name or value, a file name no one gives, or a conform intent that its parser cannot apply.
 */
export function formProblem(form: FormData): string | null {
  for (const [name, value] of form.entries()) {
    if (!isStorableText(name)) return FORM_BODY_MESSAGES.characters;
    if (typeof value === "string") {
      if (!isStorableText(value)) return FORM_BODY_MESSAGES.characters;
    } else if (!isAcceptableFileName(value.name)) return FORM_BODY_MESSAGES.fileName;
  }
  return canApplyFormIntent(form) ? null : FORM_BODY_MESSAGES.unreadable;
}

/**
 * A form's own buttons send conform's "__intent__" (add a line, remove one…) as JSON it then
 * applies, throwing on anything else: tried here with no schema, so a forged one is a 400.
 */
function canApplyFormIntent(form: FormData): boolean {
  if (!form.has("__intent__") && !form.has("__state__")) return true;
  try {
    parse(form, { resolve: () => ({}) });
    return true;
  } catch {
    return false;
  }
}

/** The form without a conform intent its parser cannot apply: what a refused form echoes back to be shown again. */
export function withoutForgedIntent(form: FormData): FormData {
  if (!canApplyFormIntent(form)) {
    form.delete("__intent__");
    form.delete("__state__");
  }
  return form;
}

const STATUS_TITLES: Record<number, string> = { 400: "Bad Request", 415: "Unsupported Media Type" };

/** The posted form (see readFormBody); a body that is not one is thrown as a 400 or 415 for the error page. */
export async function readForm(request: Request): Promise<FormData> {
  const body = await readFormBody(request);
  if (body.ok) return body.form;
  throw data({ statusCode: body.status, statusMessage: STATUS_TITLES[body.status], message: body.message }, { status: body.status });
}
