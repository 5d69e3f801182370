import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, gt, or, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { commitsOnDisk } from "~/db/group-commit.server";
import { solicitudes, type SolicitudEstimate } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { invalid, limited, ok, type Result } from "~/lib/result";
import { detectFileKind, KIND_BY_EXTENSION, type FileKind } from "~/services/files/detect-type.server";
import type { UploadedFileByCrc } from "~/services/files/multipart.server";
import { nudgeMailWorker } from "~/services/mail/outbox.server";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage } from "~/services/security/rate-limit.server";
import { buildEstimate } from "./estimate";
import type { ContactInput, QuoteRequestInput } from "./forms";
import { nudgeGeometryJob } from "./geometry.server";
import { storeSolicitud, type CheckedFile } from "./store.server";
import { isUniqueViolation } from "~/db/errors.server";

// A new solicitud from /cotiza or /contact, already read and validated by the route (the public-form
// guard and the form schema run there). Here: each file checked by its content, the same request
// recognised when it comes again (same token, or same content soon after), the strict per-IP limit
// on stored requests, the STL estimates, then one transaction that stores everything.

/** What was sent: the form's type and its parsed value. */
export type SolicitudSubmission = { type: "cotizacion"; value: QuoteRequestInput } | { type: "contacto"; value: ContactInput };

export type CreateSolicitudInput = SolicitudSubmission & {
  /** The uploads, already streamed to temporary files; the caller removes what is left of them. */
  files: UploadedFileByCrc[];
  /** The form's signed token; with `nonce` it makes the replay key (see replayKey). */
  token: string;
  /** The visitor's nonce (set by the browser, kept for that form); null without JavaScript. */
  nonce?: string | null;
  ip: string;
  userAgent: string | null;
  userId: string | null;
};

export interface CreatedSolicitud {
  id: string;
  number: string;
  /** True when this request was already stored (the same form again): nothing new was written. */
  duplicate: boolean;
}

/** How long the same request sent again with a new token counts as the one already stored. */
const DUPLICATE_WINDOW_MS = 30 * 60 * 1000;

const FORMAT_NAMES: Record<FileKind, string> = {
  step: "STEP", iges: "IGES", stl: "STL", "3mf": "3MF", obj: "OBJ", sldprt: "SolidWorks (SLDPRT)",
  dxf: "DXF", dwg: "DWG", pdf: "PDF", png: "PNG", jpg: "JPG",
};

/** Each file by its content, then the rule that joins value and files (a PDF for strict tolerances). */
function checkFiles(submission: SolicitudSubmission, uploaded: UploadedFileByCrc[]): { ok: true; files: CheckedFile[] } | { ok: false; errors: string[] } {
  const files: CheckedFile[] = [];
  const errors: string[] = [];
  for (const file of uploaded) {
    const claimed = KIND_BY_EXTENSION[path.extname(file.name).toLowerCase()];
    if (!claimed) {
      errors.push(`«${file.name}»: formato no aceptado. Use STEP, IGES, STL, 3MF, OBJ, SLDPRT, DXF, DWG, PDF, PNG o JPG.`);
      continue;
    }
    const kind = detectFileKind({ name: file.name, head: file.head, tail: file.tail, size: file.size });
    if (!kind) errors.push(`«${file.name}» no es un archivo ${FORMAT_NAMES[claimed]} válido: su contenido no corresponde a la extensión.`);
    else files.push({ ...file, id: randomUUID(), kind });
  }
  if (submission.type === "cotizacion" && submission.value.tolerance === "estrictas" && !files.some((file) => file.kind === "pdf")) {
    errors.push("Con tolerancias más estrictas que ISO 2768-m, adjunte el plano en PDF con las cotas y tolerancias.");
  }
  return errors.length ? { ok: false, errors } : { ok: true, files };
}

/**
 * sha256 of what was sent, whatever the token: type, every value, each file's name, size and
 * CRC-32. The CRC tells one person's files apart (two versions of a drawing with the same name and
 * size differ in it but once in four billion); it is not meant to resist a forger, who could only
 * make their own second request look like their first (docs/decisions/0080).
 */
export function solicitudFingerprint(input: SolicitudSubmission & { files: { name: string; size: number; crc32: string }[] }): string {
  const { formToken: _token, ...sent } = input.value;
  const canonical = JSON.stringify([input.type, Object.entries(sent).sort(([a], [b]) => a.localeCompare(b)), input.files.map((file) => [file.name, file.size, file.crc32])]);
  return createHash("sha256").update(canonical).digest("hex");
}

/**
 * What makes a post "the same form again": the token, which a cached page gives to everyone who
 * loads it within its cache window, plus the visitor's nonce. Without a nonce (no JavaScript) the
 * content stands in for it, so the same visitor posting twice still meets the unique key, even at
 * once, and two visitors with the same cached token never do (docs/decisions/0031-cached-forms.md).
 */
export function replayKey(token: string, nonce: string | null | undefined, fingerprint: string): string {
  return nonce ? `${token}:n:${nonce}` : `${token}:c:${fingerprint.slice(0, 32)}`;
}

/**
 * The request already stored when this one is identical to it (same content within the window),
 * else null. For a form the guard found too fast: someone who goes Back to a form the browser loaded
 * again (a new token) and sends it at once is sending the request already stored.
 */
export async function findRepeatedSolicitud(input: SolicitudSubmission & { files: UploadedFileByCrc[] }): Promise<CreatedSolicitud | null> {
  const checked = checkFiles(input, input.files);
  if (!checked.ok) return null;
  const earlier = await findRecentDuplicate(solicitudFingerprint({ ...input, files: checked.files }));
  return earlier ? { ...(await onDisk(earlier)), duplicate: true } : null;
}

export async function createSolicitud(input: CreateSolicitudInput): Promise<Result<CreatedSolicitud>> {
  const checked = checkFiles(input, input.files);
  if (!checked.ok) return invalid({ fieldErrors: { files: checked.errors } });
  const { files } = checked;
  const fingerprint = solicitudFingerprint({ ...input, files });
  const key = replayKey(input.token, input.nonce, fingerprint);

  // The same form posted again (double click, resubmit), or the same request with a new token.
  // Answered only once that request is on disk: it may be another one still waiting for its flush (0082).
  const existing = await findEarlier(key, fingerprint);
  if (existing) return ok({ ...(await onDisk(existing)), duplicate: true });

  // Every attempt counted against the route's loose limit; only requests about to be stored count here.
  const limit = await consumeRateLimit(`form-${input.type}:${input.ip || "desconocida"}`, RATE_LIMITS.publicForm);
  if (!limit.allowed) return limited(rateLimitMessage(limit), limit.retryAfterSeconds);

  const estimates = input.type === "cotizacion" ? await estimatesFor(files, input.value) : [];
  try {
    const created = await storeSolicitud({
      submission: input,
      files,
      estimates,
      token: key,
      fingerprint,
      ip: input.ip || null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      userId: input.userId,
    });
    nudgeMailWorker();
    if (files.length > 0) nudgeGeometryJob();
    return ok({ ...created, duplicate: false });
  } catch (error) {
    // The same form posted twice at once: the first insert won, this one shows its result.
    const winner = isUniqueViolation(error) ? await findByToken(key) : null;
    if (winner) return ok({ ...(await onDisk(winner)), duplicate: true });
    throw error;
  }
}

/** `found` once every commit made so far, the one that stored it among them, is on disk. */
async function onDisk<T>(found: T): Promise<T> {
  await commitsOnDisk();
  return found;
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

async function findByToken(token: string): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb().select({ id: solicitudes.id, number: solicitudes.number }).from(solicitudes).where(eq(solicitudes.formToken, token)).limit(1);
  return row ?? null;
}

const recentDuplicate = (fingerprint: string, now: number) => and(eq(solicitudes.fingerprint, fingerprint), gt(solicitudes.createdAt, new Date(now - DUPLICATE_WINDOW_MS)));

async function findRecentDuplicate(fingerprint: string, now = Date.now()): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb()
    .select({ id: solicitudes.id, number: solicitudes.number })
    .from(solicitudes)
    .where(recentDuplicate(fingerprint, now))
    .orderBy(desc(solicitudes.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The request already stored under this replay key, else the newest one with this content within
 * the window: one query for both (each new request asks, so the statement counts; 0075).
 */
async function findEarlier(token: string, fingerprint: string, now = Date.now()): Promise<{ id: string; number: string } | null> {
  const [row] = await getDb()
    .select({ id: solicitudes.id, number: solicitudes.number })
    .from(solicitudes)
    .where(or(eq(solicitudes.formToken, token), recentDuplicate(fingerprint, now)))
    .orderBy(sql`${solicitudes.formToken} = ${token} desc`, desc(solicitudes.createdAt))
    .limit(1);
  return row ?? null;
}
