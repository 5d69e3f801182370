import fs from "node:fs";
import path from "node:path";
import { beforeEach, expect } from "vitest";
import { getDb } from "~/db/client.server";
import { solicitudes } from "~/db/schema/solicitudes";
import { parseSolicitudFilters } from "~/features/solicitudes/filters";
import type { RequestMeta } from "~/lib/request-meta";
import { issueFormToken } from "~/services/security/form-token.server";
import { insertTestStaff } from "./auth-requests";
import { useTestFileDatabase } from "./test-file-database";

// Builds what the /cotiza and /contact actions hand to submitSolicitud: a real Request whose body is
// a real multipart (FormData with Files, so the boundary is real) or urlencoded form, plus the
// client IP. Below, rows and readers for the staff-side tests.

export type FieldValue = string | string[];

/** A form token issued `ageMs` ago (default 5 s, past the minimum fill time). */
export function agedFormToken(kind: "cotiza" | "contacto", ageMs = 5_000): string {
  return issueFormToken(kind, Date.now() - ageMs);
}

type FieldOverrides = Record<string, FieldValue | undefined>;

/** A form's valid fields with `overrides` applied; an override of `undefined` leaves that field out. */
function withOverrides(valid: Record<string, FieldValue>, overrides: FieldOverrides): Record<string, FieldValue> {
  const fields: FieldOverrides = { ...valid, ...overrides };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, FieldValue] => entry[1] !== undefined));
}

/** Valid /cotiza fields (a token must still be added). */
export function validQuoteFields(overrides: FieldOverrides = {}): Record<string, FieldValue> {
  return withOverrides(
    {
      name: "Ana Torres",
      company: "Maquinados del Bajío",
      email: "ana.torres@ejemplo.mx",
      phone: "+52 442 123 4567",
      city: "Querétaro, Qro.",
      industry: "industrial",
      service: "ingenieria-cad",
      description: "Soporte de aluminio para una banda transportadora, con dos barrenos roscados M6.",
      quantity: "25",
      tolerance: "iso2768m",
      privacy: "on",
    },
    overrides,
  );
}

/** Valid /contact fields (a token must still be added). */
export function validContactFields(overrides: FieldOverrides = {}): Record<string, FieldValue> {
  return withOverrides(
    {
      name: "Luis Hernández",
      email: "luis.hernandez@ejemplo.mx",
      phone: "442 987 6543",
      subject: "Visita a planta",
      message: "Quisiera agendar una visita a su planta la próxima semana.",
      privacy: "on",
    },
    overrides,
  );
}

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

interface RequestOptions {
  ip?: string;
  cookie?: string;
  userAgent?: string;
  path?: string;
}

function headersFor(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": options.userAgent ?? "vitest" };
  if (options.cookie) headers.cookie = options.cookie;
  return headers;
}

/** The /cotiza form's body as the browser builds it: text fields first, then the files under "files". */
export function quoteFormData(fields: Record<string, FieldValue>, files: UploadFile[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  for (const file of files) form.append("files", new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }));
  return form;
}

/** The cached /cotiza page's form token, as every visitor within the hour gets it from a running server. */
export async function cotizaPageToken(url: string): Promise<string> {
  const html = await (await fetch(`${url}/cotiza`, { signal: AbortSignal.timeout(30_000) })).text();
  const token = /name="formToken"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? /value="([^"]+)"[^>]*name="formToken"/.exec(html)?.[1];
  if (!token) throw new Error("/cotiza has no form token");
  return token;
}

/** A multipart POST to /cotiza: text fields first, then the files under "files" (as the form sends them). */
export function quoteRequest(fields: Record<string, FieldValue>, files: UploadFile[] = [], options: RequestOptions = {}): RequestMeta {
  const form = quoteFormData(fields, files);
  return {
    request: new Request(`http://localhost${options.path ?? "/cotiza"}`, { method: "POST", body: form, headers: headersFor(options) }),
    ip: options.ip ?? "127.0.0.1",
  };
}

/** An application/x-www-form-urlencoded POST to /contact. */
export function contactRequest(fields: Record<string, FieldValue>, options: RequestOptions = {}): RequestMeta {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  return {
    request: new Request(`http://localhost${options.path ?? "/contact"}`, { method: "POST", body, headers: headersFor(options) }),
    ip: options.ip ?? "127.0.0.1",
  };
}

/** Every regular file under `dir` (relative paths), skipping the directories named in `skip`. */
export function listFilesRecursive(dir: string, skip: string[] = []): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) walk(full);
      } else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

// Rows for the staff-side tests, inserted straight into the database (the staff screens read what
// the public forms stored; these tests need exact dates, statuses and many rows).

/**
 * The set-up of a staff-side test file: its own database (with TEST_STAFF's account when `staff`
 * is set) and no solicitudes at the start of each test. `dataDir` (from isolateTestEnv) is removed
 * at the end.
 */
export function useSolicitudTestDatabase(dataDir: string, options: { staff?: boolean } = {}): void {
  useTestFileDatabase(dataDir, options.staff ? insertTestStaff : undefined);
  beforeEach(async () => {
    // Events and files go with their solicitud (ON DELETE CASCADE).
    await getDb().delete(solicitudes);
  });
}

/** The staff list's filters for a query string, parsed as the route parses them. */
export function solicitudFilters(query = "") {
  return parseSolicitudFilters(new URLSearchParams(query));
}

type NewSolicitud = typeof solicitudes.$inferInsert;
let sequence = 0;

/** A valid solicitud row, numbered in sequence; `overrides` set the columns a test cares about. */
export function aSolicitud(overrides: Partial<NewSolicitud> = {}): NewSolicitud {
  sequence += 1;
  return {
    number: `SOL-2026-${String(sequence).padStart(5, "0")}`,
    type: "cotizacion",
    name: `Cliente ${sequence}`,
    email: `cliente${sequence}@ejemplo.mx`,
    privacyAcceptedAt: new Date("2026-03-01T12:00:00Z"),
    formToken: `token-${process.pid}-${sequence}`,
    ...overrides,
  };
}

export async function insertSolicitudes(...rows: Partial<NewSolicitud>[]) {
  return getDb()
    .insert(solicitudes)
    .values(rows.map((row) => aSolicitud(row)))
    .returning();
}

/** n rows one minute apart, newest last, ending at `end`. */
export async function insertSolicitudSeries(n: number, end = new Date("2026-03-10T18:00:00Z"), overrides: Partial<NewSolicitud> = {}) {
  const rows = Array.from({ length: n }, (_, index) => aSolicitud({ createdAt: new Date(end.getTime() - (n - 1 - index) * 60_000), ...overrides }));
  const inserted = [];
  for (let start = 0; start < rows.length; start += 500) inserted.push(...(await getDb().insert(solicitudes).values(rows.slice(start, start + 500)).returning()));
  return inserted;
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; bytes: Uint8Array; chunks: Uint8Array[] }> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), bytes, chunks };
}

/**
 * A quote request sent to a running server's /api/cotiza as a visitor's browser sends it (multipart,
 * not signed in) from `ip`; its number. The server must share this process's AUTH_SECRET, so the
 * form token made here is valid there.
 */
export async function postQuoteRequest(url: string, visitor: { name: string; email: string; ip: string }): Promise<string> {
  const form = new FormData();
  for (const [key, value] of Object.entries(validQuoteFields({ name: visitor.name, email: visitor.email }))) {
    for (const item of [value].flat()) form.append(key, item);
  }
  form.set("formToken", agedFormToken("cotiza"));
  const response = await fetch(`${url}/api/cotiza`, {
    method: "POST",
    body: form,
    headers: { Origin: url, "X-Forwarded-For": visitor.ip },
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json()) as { ok: boolean; number?: string };
  expect(body).toMatchObject({ ok: true });
  return body.number!;
}
