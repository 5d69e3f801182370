import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { and, desc, eq, gt } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudEvents, solicitudFiles, solicitudes, type SolicitudEstimate } from "~/db/schema/solicitudes";
import { getSessionUser } from "~/features/accounts/index.server";
import type { RequestMeta } from "~/lib/request-meta";
import { detectFileKind, KIND_BY_EXTENSION, MIME_BY_KIND, type FileKind } from "~/services/files/detect-type.server";
import { parseMultipartUpload, type UploadedFile } from "~/services/files/multipart.server";
import { absoluteStoragePath, moveIntoStorage, newStoragePath, removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { nextRecordNumber } from "~/services/numbering/next-number.server";
import { issueFormToken, verifyFormToken } from "~/services/security/form-token.server";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage } from "~/services/security/rate-limit.server";
import { isHoneypotFilled } from "~/lib/honeypot";
import { logger } from "~/lib/logger.server";
import { buildEstimate } from "./estimate";
import { ContactSchema, NDA_VERSION, QuoteRequestSchema, UPLOAD_LIMITS, type ContactInput, type QuoteRequestInput } from "./forms";
import { enqueueSolicitudEmails } from "./solicitud-emails.server";

export type SubmitResult =
  | { ok: true; id: string; number: string; duplicate: boolean }
  | { ok: false; status: number; result: SubmissionResult<string[]>; formToken: string; headers?: Record<string, string> };

const FORM_KINDS = { cotizacion: "cotiza", contacto: "contacto" } as const;
const BOT_MESSAGE = "No pudimos procesar el formulario. Si usa un programa que llena formularios automáticamente, desactívelo e intente de nuevo.";
const FORMAT_NAMES: Record<FileKind, string> = {
  step: "STEP", iges: "IGES", stl: "STL", "3mf": "3MF", obj: "OBJ", sldprt: "SolidWorks (SLDPRT)",
  dxf: "DXF", dwg: "DWG", pdf: "PDF", png: "PNG", jpg: "JPG",
};

export function issueSolicitudToken(type: keyof typeof FORM_KINDS): string {
  return issueFormToken(FORM_KINDS[type]);
}

interface CheckedFile extends UploadedFile {
  id: string;
  kind: FileKind;
}

/** A new solicitud from /cotiza (multipart with files) or /contact; see the issue's rules. */
export async function submitForm(meta: RequestMeta, type: "cotizacion" | "contacto"): Promise<SubmitResult> {
  const schema = type === "cotizacion" ? QuoteRequestSchema : ContactSchema;
  let fields: FormData;
  let uploaded: UploadedFile[] = [];

  if (type === "cotizacion") {
    const upload = await parseMultipartUpload(meta.request, UPLOAD_LIMITS, uploadsTmpDir());
    fields = upload.fields;
    if (!upload.ok) return refuse(fields, schema, type, upload.status, { formErrors: [upload.message] });
    uploaded = upload.files;
  } else {
    try {
      fields = await meta.request.formData();
    } catch {
      return refuse(new FormData(), schema, type, 400, { formErrors: ["No pudimos leer el formulario. Envíelo de nuevo desde la página."] });
    }
  }

  try {
    return await submitChecked(meta, type, fields, uploaded);
  } finally {
    // Whatever was not moved into storage is a leftover temporary file.
    await removeQuietly(uploaded.map((file) => file.tmpPath));
  }
}

/** How long the same request sent again with a new token counts as the one already stored. */
const DUPLICATE_WINDOW_MS = 30 * 60 * 1000;

type Checked =
  | { ok: true; value: QuoteRequestInput | ContactInput; files: CheckedFile[]; reply: (errors: { formErrors: string[] }) => SubmissionResult<string[]> }
  | { ok: false; result: SubmissionResult<string[]> };

/** The schema, then each file by its content, then the rules that join both (a PDF for strict tolerances). */
function checkSolicitud(type: "cotizacion" | "contacto", fields: FormData, uploaded: UploadedFile[]): Checked {
  const parsed = parseWithZod(fields, { schema: type === "cotizacion" ? QuoteRequestSchema : ContactSchema });
  if (parsed.status !== "success") return { ok: false, result: parsed.reply() };

  const files: CheckedFile[] = [];
  const fileErrors: string[] = [];
  for (const file of uploaded) {
    const claimed = KIND_BY_EXTENSION[path.extname(file.name).toLowerCase()];
    if (!claimed) {
      fileErrors.push(`«${file.name}»: formato no aceptado. Use STEP, IGES, STL, 3MF, OBJ, SLDPRT, DXF, DWG, PDF, PNG o JPG.`);
      continue;
    }
    const kind = detectFileKind({ name: file.name, head: file.head, tail: file.tail, size: file.size });
    if (!kind) fileErrors.push(`«${file.name}» no es un archivo ${FORMAT_NAMES[claimed]} válido: su contenido no corresponde a la extensión.`);
    else files.push({ ...file, id: randomUUID(), kind });
  }
  const value = parsed.value as QuoteRequestInput | ContactInput;
  if (type === "cotizacion" && (value as QuoteRequestInput).tolerance === "estrictas" && !files.some((file) => file.kind === "pdf")) {
    fileErrors.push("Con tolerancias más estrictas que ISO 2768-m, adjunte el plano en PDF con las cotas y tolerancias.");
  }
  if (fileErrors.length) return { ok: false, result: parsed.reply({ fieldErrors: { files: fileErrors } }) };
  return { ok: true, value, files, reply: (errors) => parsed.reply(errors) };
}

/** sha256 of what was sent, whatever the token: type, every value, each file's name and content hash. */
export function solicitudFingerprint(type: "cotizacion" | "contacto", value: QuoteRequestInput | ContactInput, files: { name: string; sha256: string }[]): string {
  const { formToken: _token, ...sent } = value;
  const canonical = JSON.stringify([type, Object.entries(sent).sort(([a], [b]) => a.localeCompare(b)), files.map((file) => [file.name, file.sha256])]);
  return createHash("sha256").update(canonical).digest("hex");
}

async function submitChecked(meta: RequestMeta, type: "cotizacion" | "contacto", fields: FormData, uploaded: UploadedFile[]): Promise<SubmitResult> {
  const schema = type === "cotizacion" ? QuoteRequestSchema : ContactSchema;
  const token = String(fields.get("formToken") ?? "");
  const tokenCheck = verifyFormToken(token, FORM_KINDS[type]);

  // Bots: nothing is stored and nothing tells them which check they failed.
  if (isHoneypotFilled(fields)) return refuse(fields, schema, type, 400, { formErrors: [BOT_MESSAGE] });
  const tooFast = !tokenCheck.ok && tokenCheck.reason === "too-fast";
  if (!tokenCheck.ok && !tooFast) {
    return refuse(fields, schema, type, 400, {
      formErrors: ["El formulario caducó por seguridad. Revise sus datos y envíelo de nuevo."],
    });
  }
  // Every attempt counts against a loose limit (correcting a form takes a few tries); only
  // solicitudes about to be stored count against the strict one below.
  const attempts = await consumeRateLimit(`form-attempt-${type}:${meta.ip || "desconocida"}`, RATE_LIMITS.publicFormAttempts);
  if (tooFast) {
    // Someone who goes Back to a form the browser loaded again (a new token) and sends it at once is
    // sending the request already stored: they get its number. Anything else this fast is refused.
    const checked = attempts.allowed ? checkSolicitud(type, fields, uploaded) : null;
    const earlier = checked?.ok ? await findRecentDuplicate(solicitudFingerprint(type, checked.value, checked.files)) : null;
    return earlier ? { ok: true, ...earlier, duplicate: true } : refuse(fields, schema, type, 400, { formErrors: [BOT_MESSAGE] });
  }
  if (!attempts.allowed) {
    return refuse(fields, schema, type, 429, { formErrors: [rateLimitMessage(attempts)] }, token, { "Retry-After": String(attempts.retryAfterSeconds) });
  }

  const checked = checkSolicitud(type, fields, uploaded);
  if (!checked.ok) return { ok: false, status: 400, result: checked.result, formToken: token };
  const { value, files } = checked;
  const fingerprint = solicitudFingerprint(type, value, files);

  // The same form posted again (double click, resubmit), or the same request with a new token.
  const existing = (await findByToken(token)) ?? (await findRecentDuplicate(fingerprint));
  if (existing) return { ok: true, ...existing, duplicate: true };

  const limit = await consumeRateLimit(`form-${type}:${meta.ip || "desconocida"}`, RATE_LIMITS.publicForm);
  if (!limit.allowed) {
    return { ok: false, status: 429, result: checked.reply({ formErrors: [rateLimitMessage(limit)] }), formToken: token, headers: { "Retry-After": String(limit.retryAfterSeconds) } };
  }

  const user = await getSessionUser(meta);
  const estimates = type === "cotizacion" ? await estimatesFor(files, value as QuoteRequestInput) : [];
  try {
    const created = await store(meta, type, value, token, fingerprint, files, estimates, user?.id ?? null);
    nudgeMailWorker();
    return { ok: true, ...created, duplicate: false };
  } catch (error) {
    // The same form posted twice at once: the first insert won, this one shows its result.
    const winner = isUniqueViolation(error) ? await findByToken(token) : null;
    if (winner) return { ok: true, ...winner, duplicate: true };
    throw error;
  }
}

async function estimatesFor(files: CheckedFile[], input: QuoteRequestInput): Promise<SolicitudEstimate[]> {
  const estimates: SolicitudEstimate[] = [];
  for (const file of files.filter((candidate) => candidate.kind === "stl")) {
    try {
      const bytes = await fs.promises.readFile(file.tmpPath);
      estimates.push(buildEstimate({ fileId: file.id, fileName: file.name, bytes, service: input.service, quantity: input.quantity }));
    } catch (error) {
      logger.warn({ err: error, file: file.name }, "could not compute the STL estimate");
    }
  }
  return estimates;
}

async function store(
  meta: RequestMeta,
  type: "cotizacion" | "contacto",
  value: QuoteRequestInput | ContactInput,
  token: string,
  fingerprint: string,
  files: CheckedFile[],
  estimates: SolicitudEstimate[],
  userId: string | null,
): Promise<{ id: string; number: string }> {
  const now = new Date();
  const moved: string[] = [];
  try {
    return await getDb().transaction(async (tx) => {
      const number = await nextRecordNumber(tx, "SOL", now);
      const quote = type === "cotizacion" ? (value as QuoteRequestInput) : null;
      const contact = type === "contacto" ? (value as ContactInput) : null;
      const [row] = await tx
        .insert(solicitudes)
        .values({
          number,
          type,
          userId,
          name: value.name,
          email: value.email,
          phone: value.phone || null,
          company: quote?.company || null,
          city: quote?.city || null,
          industry: quote?.industry ?? null,
          service: quote?.service ?? null,
          description: quote?.description ?? null,
          quantity: quote?.quantity ?? null,
          extraQuantities: quote?.extraQuantities ?? [],
          requiredBy: quote?.requiredBy || null,
          material: quote?.material || null,
          finish: quote?.finish || null,
          tolerance: quote?.tolerance ?? null,
          threads: quote?.threads ? quote.threads === "si" : null,
          certificates: quote?.certificates ?? [],
          subject: contact?.subject ?? null,
          message: contact?.message ?? null,
          ndaVersion: quote?.nda ? NDA_VERSION : null,
          ndaAcceptedAt: quote?.nda ? now : null,
          privacyAcceptedAt: now,
          estimates,
          formToken: token,
          fingerprint,
          ip: meta.ip || null,
          userAgent: meta.request.headers.get("user-agent")?.slice(0, 500) ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: solicitudes.id });
      const id = row!.id;
      for (const file of files) {
        const storagePath = newStoragePath(now);
        await tx.insert(solicitudFiles).values({
          id: file.id,
          solicitudId: id,
          originalName: file.name.slice(0, 255),
          storagePath,
          kind: file.kind,
          mimeType: MIME_BY_KIND[file.kind],
          size: file.size,
          sha256: file.sha256,
        });
        // Files reach their final place before the commit; a failed commit removes them below.
        await moveIntoStorage(file.tmpPath, storagePath);
        moved.push(absoluteStoragePath(storagePath));
      }
      await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "creado", toStatus: "nuevo", actorName: value.name });
      await enqueueSolicitudEmails(tx, {
        id,
        number,
        type,
        name: value.name,
        email: value.email,
        phone: value.phone,
        company: quote?.company,
        industry: quote?.industry,
        service: quote?.service,
        quantity: quote?.quantity,
        description: quote?.description,
        certificates: quote?.certificates,
        subject: contact?.subject,
        message: contact?.message,
        files: files.map((file) => ({ name: file.name, size: file.size })),
      });
      return { id, number };
    });
  } catch (error) {
    await removeQuietly(moved);
    throw error;
  }
}

async function findByToken(token: string): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb().select({ id: solicitudes.id, number: solicitudes.number }).from(solicitudes).where(eq(solicitudes.formToken, token)).limit(1);
  return row ?? null;
}

async function findRecentDuplicate(fingerprint: string, now = Date.now()): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb()
    .select({ id: solicitudes.id, number: solicitudes.number })
    .from(solicitudes)
    .where(and(eq(solicitudes.fingerprint, fingerprint), gt(solicitudes.createdAt, new Date(now - DUPLICATE_WINDOW_MS))))
    .orderBy(desc(solicitudes.createdAt))
    .limit(1);
  return row ?? null;
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === "23505") return true;
  }
  return false;
}

/** The form again with what the person typed and the reason; a fresh token unless theirs is still good. */
function refuse(
  fields: FormData,
  schema: typeof QuoteRequestSchema | typeof ContactSchema,
  type: "cotizacion" | "contacto",
  status: number,
  errors: { formErrors: string[] },
  token?: string,
  headers?: Record<string, string>,
): SubmitResult {
  const parsed = parseWithZod(fields, { schema });
  return { ok: false, status, result: parsed.reply({ formErrors: errors.formErrors }), formToken: token ?? issueSolicitudToken(type), headers };
}
