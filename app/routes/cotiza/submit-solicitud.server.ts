import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { getSessionUser } from "~/features/accounts/index.server";
import { createSolicitud, findRepeatedSolicitud, type SolicitudSubmission } from "~/features/solicitudes/create.server";
import { contactSchema, quoteRequestSchema, UPLOAD_LIMITS } from "~/features/solicitudes/forms";
import { replyToFailure } from "~/lib/form-reply";
import { FORM_NONCE_FIELD } from "~/lib/form-visit";
import type { RequestMeta } from "~/lib/request-meta";
import { invalid, type Failure } from "~/lib/result";
import { parseMultipartUpload, type UploadedFileByCrc } from "~/services/files/multipart.server";
import { isNoSpaceError, NO_SPACE_MESSAGE, removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import { FORM_GUARD_MESSAGES, guardPublicForm, readFormData } from "~/services/security/form-guard.server";
import { issueFormToken, readFormNonce } from "~/services/security/form-token.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";

// The HTTP side of a new solicitud, shared by /cotiza (form without JavaScript), /api/cotiza (JSON
// with upload progress) and /contact: read the body (multipart with files to temporary files, or a
// plain form), guard → parse → createSolicitud → a reply each route turns into its answer. Temporary
// files left over (not moved into storage) are removed whatever happens.

export type SolicitudFormType = SolicitudSubmission["type"];

/** The token form each page carries (see services/security/form-token). */
const TOKEN_FORMS = { cotizacion: "cotiza", contacto: "contacto" } as const satisfies Record<SolicitudFormType, string>;

export function issueSolicitudToken(type: SolicitudFormType): string {
  return issueFormToken(TOKEN_FORMS[type]);
}

export type SubmitResult =
  | { ok: true; id: string; number: string; duplicate: boolean }
  | { ok: false; status: number; result: SubmissionResult<string[]>; formToken: string; headers?: Record<string, string> };

type Parsed =
  | { parsed: Submission<unknown>; submission: SolicitudSubmission }
  | { parsed: Submission<unknown>; submission: null };

function parseFields(fields: FormData, type: SolicitudFormType): Parsed {
  if (type === "cotizacion") {
    const parsed = parseWithZod(fields, { schema: quoteRequestSchema() });
    return { parsed, submission: parsed.status === "success" ? { type, value: parsed.value } : null };
  }
  const parsed = parseWithZod(fields, { schema: contactSchema() });
  return { parsed, submission: parsed.status === "success" ? { type, value: parsed.value } : null };
}

/**
 * The form again with what the person typed and the reason. `token`: the one they may send again
 * with (after a limit or an invalid value); without it, a fresh one (the old one is spent or bad).
 */
function refuse(input: { fields: FormData; type: SolicitudFormType; failure: Failure; status?: number; token?: string }): SubmitResult {
  const reply = replyToFailure(parseFields(input.fields, input.type).parsed, input.failure);
  return {
    ok: false,
    status: input.status ?? reply.status,
    result: reply.result,
    formToken: input.token ?? issueSolicitudToken(input.type),
    headers: reply.headers,
  };
}

/** A new solicitud from the request's body; see SubmitResult for what the route answers. */
export async function submitSolicitud(meta: RequestMeta, type: SolicitudFormType): Promise<SubmitResult> {
  let fields: FormData;
  let uploaded: UploadedFileByCrc[] = [];
  if (type === "cotizacion") {
    const upload = await parseMultipartUpload(meta.request, UPLOAD_LIMITS, uploadsTmpDir());
    fields = upload.fields;
    if (!upload.ok) return refuse({ fields, type, failure: invalid(upload.message), status: upload.status });
    uploaded = upload.files;
  } else {
    const form = await readFormData(meta.request);
    if (!form) return refuse({ fields: new FormData(), type, failure: invalid(FORM_GUARD_MESSAGES.unreadable) });
    fields = form;
  }
  let result: SubmitResult | undefined;
  try {
    result = await submitFields({ meta, type, fields, uploaded });
    return result;
  } catch (error) {
    // A full disk while storing the files: nothing was committed; the form comes back as typed.
    if (isNoSpaceError(error)) return refuse({ fields, type, failure: invalid(NO_SPACE_MESSAGE), status: 507 });
    throw error;
  } finally {
    // A new solicitud took every file into storage (createSolicitud stores all of them or none).
    // Otherwise what was uploaded is a leftover temporary file.
    if (!(result?.ok && !result.duplicate)) await removeQuietly(uploaded.map((file) => file.tmpPath));
  }
}

async function submitFields(input: { meta: RequestMeta; type: SolicitudFormType; fields: FormData; uploaded: UploadedFileByCrc[] }): Promise<SubmitResult> {
  const { meta, type, fields, uploaded } = input;
  // Every attempt counts against a loose limit (correcting a form takes a few tries); the domain
  // counts only the solicitudes about to be stored against its strict one.
  const guard = await guardPublicForm(fields, { scope: `form-attempt-${type}`, ip: meta.ip, rule: RATE_LIMITS.publicFormAttempts, token: { form: TOKEN_FORMS[type] } });
  if (!guard.ok) {
    // Over the limit the token is still good; a bot or an expired form needs a new one.
    return refuse({ fields, type, failure: guard, token: guard.kind === "limited" ? String(fields.get("formToken") ?? "") : undefined });
  }
  const { token, tooFast } = guard.value;
  const { parsed, submission } = parseFields(fields, type);

  if (tooFast) {
    // Only the request already stored may answer this fast (Back, then sent again); else a bot.
    const earlier = submission ? await findRepeatedSolicitud({ ...submission, files: uploaded }) : null;
    return earlier ? { ok: true, ...earlier } : refuse({ fields, type, failure: invalid(FORM_GUARD_MESSAGES.bot) });
  }
  if (!submission) return { ok: false, status: 400, result: parsed.reply(), formToken: token };

  const user = await getSessionUser(meta);
  const created = await createSolicitud({
    ...submission,
    files: uploaded,
    token,
    nonce: readFormNonce(fields.get(FORM_NONCE_FIELD)),
    ip: meta.ip,
    userAgent: meta.request.headers.get("user-agent"),
    userId: user?.id ?? null,
  });
  if (created.ok) return { ok: true, ...created.value };
  const reply = replyToFailure(parsed, created);
  return { ok: false, status: reply.status, result: reply.result, formToken: token, headers: reply.headers };
}
