import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Locator, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { ADMIN_MARKER_KEY, STAFF, baseUrl, signInApi, uniqueEmail, uniqueToken } from "./accounts";
import { clientHeaders, expect } from "./fixtures";

// The /cotiza and /contact forms for the browser tests: realistic values (accents on purpose),
// filling and checking them by their Spanish labels, real one-time tokens read from the pages, and
// a staff view of what the server stored (its own pages, never its database).

/** The forms refuse a post sooner than 3 s after they were shown (a bot's speed); wait past it. */
export const MIN_FILL_WAIT_MS = 3_100;

/** Waits until the form shown at `shownAt` (Date.now() right after loading it) may be sent. */
export async function waitFillTime(page: Page, shownAt: number): Promise<void> {
  const left = shownAt + MIN_FILL_WAIT_MS - Date.now();
  if (left > 0) await page.waitForTimeout(left);
}

/** The staff recipients' address the test server mails notifications to. */
export function staffMailbox(): string {
  const address = process.env.E2E_MAIL_STAFF_TO;
  if (!address) throw new Error("E2E_MAIL_STAFF_TO no está definido: global-setup no preparó el entorno de pruebas.");
  return address;
}

/** YYYY-MM-DD `days` from today in Mexico City (negative for the past). */
export function mexicoDate(days = 0): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Mexico_City" }).format(new Date(Date.now() + days * 86_400_000));
}

/** How the staff detail page writes a calendar date, e.g. "15 de marzo de 2026". */
export function longSpanishDate(isoDate: string): string {
  return new Intl.DateTimeFormat("es-MX", { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));
}

export const CURRENT_YEAR = () => mexicoDate().slice(0, 4);
export const FOLIO = /SOL-\d{4}-\d{4,}/;

// ---------------------------------------------------------------------------------------------
// /cotiza

export interface QuoteValues {
  tag: string;
  name: string;
  company: string;
  email: string;
  phone: string;
  city: string;
  /** Option value and label. */
  industry: { value: string; label: string };
  service: { value: string; label: string };
  description: string;
  quantity: string;
  extraQuantities: string;
  requiredBy: string;
  material: string;
  finish: string;
  tolerance: "iso2768m" | "estrictas";
  threads: "si" | "no";
  /** Labels of the ticked certificates. */
  certificates: string[];
  nda: boolean;
  privacy: boolean;
}

export const CERTIFICATE_LABELS = ["Certificado de conformidad", "RoHS", "REACH", "Reporte dimensional"];
export const TOLERANCE_LABELS = { iso2768m: "Estándar (ISO 2768-m)", estrictas: "Más estrictas (indicadas en plano PDF)" } as const;

/** A complete, valid request; the tag (also in the name and company) finds it in the staff list. */
export function quoteValues(overrides: Partial<QuoteValues> = {}): QuoteValues {
  const tag = overrides.tag ?? uniqueToken();
  return {
    tag,
    name: `José Ñúñez Peña ${tag}`,
    company: `Fundición y Maquinados Querétaro ${tag}`,
    email: uniqueEmail("cotiza"),
    phone: "+52 442 123 4567",
    city: "Santiago de Querétaro, Qro.",
    industry: { value: "medica", label: "Médica" },
    service: { value: "prototipado-rapido", label: "Prototipado rápido (impresión 3D)" },
    description: "Carcasa para un monitor de signos vitales: dos mitades que cierran a presión, con insertos roscados M3 y una ventana para la pantalla.",
    quantity: "1",
    extraQuantities: "10, 50",
    requiredBy: mexicoDate(45),
    material: "Nylon PA12 grado médico",
    finish: "Satinado, sin rebabas ni marcas de soporte",
    tolerance: "iso2768m",
    threads: "si",
    certificates: ["Certificado de conformidad", "Reporte dimensional"],
    nda: true,
    privacy: true,
    ...overrides,
  };
}

export function quoteForm(page: Page) {
  const form = page.locator("form#cotiza");
  return {
    form,
    name: form.getByLabel("Nombre", { exact: true }),
    company: form.getByLabel("Empresa"),
    email: form.getByLabel("Correo electrónico"),
    phone: form.getByLabel("Teléfono o WhatsApp"),
    city: form.getByLabel("Ciudad y estado"),
    industry: form.getByLabel("Industria"),
    service: form.getByLabel("Servicio"),
    description: form.getByLabel("Descripción del proyecto"),
    quantity: form.getByLabel("Cantidad", { exact: true }),
    extraQuantities: form.getByLabel("Otras cantidades"),
    requiredBy: form.getByLabel("Fecha requerida"),
    material: form.getByLabel("Material"),
    finish: form.getByLabel("Acabado"),
    tolerance: (value: "iso2768m" | "estrictas") => form.getByRole("radio", { name: TOLERANCE_LABELS[value] }),
    threads: (value: "si" | "no") => form.getByRole("group", { name: "¿La pieza lleva roscas?" }).getByRole("radio", { name: value === "si" ? "Sí" : "No" }),
    certificate: (label: string) => form.getByRole("checkbox", { name: label, exact: true }),
    nda: form.getByRole("checkbox", { name: "Requiero acuerdo de confidencialidad" }),
    privacy: form.getByRole("checkbox", { name: /acepto el aviso de privacidad/ }),
    files: form.locator('input[type="file"][name="files"]'),
    dropZone: form.locator('label[for="cotiza-archivos-input"]'),
    fileErrors: form.locator("section[aria-labelledby=cotiza-archivos] [role=alert]"),
    formErrors: form.locator("#cotiza-error"),
    submit: form.getByRole("button", { name: /Enviar solicitud de cotización|Enviando solicitud/ }),
  };
}

/** Types every value of `values` into /cotiza (the page must be open). */
export async function fillQuoteForm(page: Page, values: QuoteValues): Promise<void> {
  const f = quoteForm(page);
  await f.name.fill(values.name);
  await f.company.fill(values.company);
  await f.email.fill(values.email);
  await f.phone.fill(values.phone);
  await f.city.fill(values.city);
  // The industry first: choosing it preselects its certificates, which are set below.
  await f.industry.selectOption(values.industry.value);
  await f.service.selectOption(values.service.value);
  await f.description.fill(values.description);
  await f.quantity.fill(values.quantity);
  await f.extraQuantities.fill(values.extraQuantities);
  await f.requiredBy.fill(values.requiredBy);
  await f.material.fill(values.material);
  await f.finish.fill(values.finish);
  await f.tolerance(values.tolerance).check();
  await f.threads(values.threads).check();
  for (const label of CERTIFICATE_LABELS) await f.certificate(label).setChecked(values.certificates.includes(label));
  await f.nda.setChecked(values.nda);
  await f.privacy.setChecked(values.privacy);
}

/** Every value of `values` is in its field (after a refused post, nothing typed is lost). */
export async function expectQuoteValues(page: Page, values: QuoteValues): Promise<void> {
  const f = quoteForm(page);
  await expect(f.name).toHaveValue(values.name);
  await expect(f.company).toHaveValue(values.company);
  await expect(f.email).toHaveValue(values.email);
  await expect(f.phone).toHaveValue(values.phone);
  await expect(f.city).toHaveValue(values.city);
  await expect(f.industry).toHaveValue(values.industry.value);
  await expect(f.service).toHaveValue(values.service.value);
  await expect(f.description).toHaveValue(values.description);
  await expect(f.quantity).toHaveValue(values.quantity);
  await expect(f.extraQuantities).toHaveValue(values.extraQuantities);
  await expect(f.requiredBy).toHaveValue(values.requiredBy);
  await expect(f.material).toHaveValue(values.material);
  await expect(f.finish).toHaveValue(values.finish);
  await expect(f.tolerance(values.tolerance)).toBeChecked();
  await expect(f.threads(values.threads)).toBeChecked();
  for (const label of CERTIFICATE_LABELS) {
    if (values.certificates.includes(label)) await expect(f.certificate(label), label).toBeChecked();
    else await expect(f.certificate(label), label).not.toBeChecked();
  }
  if (values.nda) await expect(f.nda).toBeChecked();
  else await expect(f.nda).not.toBeChecked();
  if (values.privacy) await expect(f.privacy).toBeChecked();
  else await expect(f.privacy).not.toBeChecked();
}

/** The field's error, in Spanish, tied to it (aria-invalid and aria-describedby) and shown beside it. */
export async function expectFieldError(field: Locator, message: string | RegExp): Promise<void> {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(typeof message === "string" ? new RegExp(escapeRegExp(message)) : message);
  const errorId = (await field.getAttribute("aria-describedby"))!.split(/\s+/).find((id) => id.endsWith("-error"));
  expect(errorId, "an error element referenced by aria-describedby").toBeTruthy();
  const error = field.page().locator(`[id="${errorId}"]`);
  await expect(error).toBeVisible();
  await expect(error).toHaveText(message);
  // Beside its field: right below it on the page (measured together, as the page may be scrolling).
  const gap = await field.evaluate((element, id) => {
    const fieldBox = element.getBoundingClientRect();
    const errorBox = document.getElementById(id)!.getBoundingClientRect();
    return errorBox.top - fieldBox.bottom;
  }, errorId!);
  expect(gap, `«${message}» right below its field`).toBeGreaterThanOrEqual(0);
  expect(gap, `«${message}» right below its field`).toBeLessThan(100);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Adds files to /cotiza's drop zone the way a drag from the desktop does: a real `drop` event with a DataTransfer. */
export async function dropFiles(page: Page, files: { name: string; bytes: Uint8Array; type?: string }[]): Promise<void> {
  const payload = files.map((file) => ({ name: file.name, type: file.type ?? "", data: Buffer.from(file.bytes).toString("base64") }));
  await page.locator('label[for="cotiza-archivos-input"]').evaluate((zone, items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const binary = atob(item.data);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      transfer.items.add(new File([bytes], item.name, { type: item.type }));
    }
    const init = { bubbles: true, cancelable: true, dataTransfer: transfer };
    zone.dispatchEvent(new DragEvent("dragenter", init));
    zone.dispatchEvent(new DragEvent("dragover", init));
    zone.dispatchEvent(new DragEvent("drop", init));
  }, payload);
}

/** A file of `bytes` bytes in a fresh temporary directory that starts with `head` (the rest zeros, sparse). */
export function bigTempFile(name: string, bytes: number, head: Uint8Array): { file: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-e2e-upload-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, head);
  fs.truncateSync(file, bytes);
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------------
// Tokens and posts without a browser

/** The one-time form token of a freshly loaded form page (each load issues a new one). */
export async function fetchFormToken(request: APIRequestContext, pagePath: "/cotiza" | "/contact"): Promise<string> {
  const response = await request.get(pagePath);
  expect(response.status()).toBe(200);
  const match = /name="formToken" value="([^"]+)"/.exec(await response.text());
  expect(match, `formToken en ${pagePath}`).toBeTruthy();
  return match![1];
}

/** /cotiza's fields as the form posts them (multipart, files under "files"). */
export function quoteMultipart(values: QuoteValues, token: string, files: { name: string; bytes: Uint8Array; type?: string }[] = [], extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  const certificateValues: Record<string, string> = {
    "Certificado de conformidad": "conformidad",
    RoHS: "rohs",
    REACH: "reach",
    "Reporte dimensional": "dimensional",
  };
  const entries: [string, string][] = [
    ["formToken", token],
    ["name", values.name],
    ["company", values.company],
    ["email", values.email],
    ["phone", values.phone],
    ["city", values.city],
    ["industry", values.industry.value],
    ["service", values.service.value],
    ["description", values.description],
    ["quantity", values.quantity],
    ["extraQuantities", values.extraQuantities],
    ["requiredBy", values.requiredBy],
    ["material", values.material],
    ["finish", values.finish],
    ["tolerance", values.tolerance],
    ["threads", values.threads],
    ...values.certificates.map((label): [string, string] => ["certificates", certificateValues[label]!]),
  ];
  for (const [name, value] of entries) form.append(name, value);
  for (const file of files) form.append("files", new File([Buffer.from(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }));
  if (values.nda) form.append("nda", "on");
  if (values.privacy) form.append("privacy", "on");
  form.append("sitio_web", "");
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
  return form;
}

// ---------------------------------------------------------------------------------------------
// Staff

/** A request context signed in as staff, from its own client IP (maxRedirects 0). Dispose it. */
export async function openStaffClient(playwright: PlaywrightWorkerArgs["playwright"]): Promise<APIRequestContext> {
  const client = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  const { response } = await signInApi(client, STAFF.email, STAFF.password);
  expect(response.status(), "staff sign-in").toBe(200);
  return client;
}

/** Signs this browser context in as staff (API sign-in plus the admin area's browser marker). */
export async function signInStaffContext(context: BrowserContext): Promise<void> {
  const { response } = await signInApi(context.request, STAFF.email, STAFF.password);
  expect(response.status(), "staff sign-in").toBe(200);
  await context.addInitScript((key) => window.localStorage.setItem(key, "1"), ADMIN_MARKER_KEY);
}

export interface ListedSolicitud {
  id: string;
  number: string;
}

/** The solicitudes /admin/formularios lists for this search (and extra URL filters), as staff see them. */
export async function findSolicitudes(staff: APIRequestContext, q: string, filters: Record<string, string> = {}): Promise<ListedSolicitud[]> {
  const response = await staff.get(`/admin/formularios?${new URLSearchParams({ q, porPagina: "100", ...filters })}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  return [...html.matchAll(/<a[^>]*href="\/admin\/formularios\/([0-9a-f-]{36})"[^>]*>(SOL-\d{4}-\d{4,})<\/a>/g)].map((match) => ({ id: match[1], number: match[2] }));
}

/** The CSV export for this search, as bytes and text. */
export async function exportCsv(staff: APIRequestContext, q: string): Promise<{ bytes: Buffer; text: string; contentType: string }> {
  const response = await staff.get(`/admin/formularios/exportar.csv?${new URLSearchParams({ q })}`);
  expect(response.status()).toBe(200);
  const bytes = await response.body();
  return { bytes, text: bytes.toString("utf8"), contentType: response.headers()["content-type"] ?? "" };
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF), without the BOM. */
export { parseCsv } from "../../support/csv";

// ---------------------------------------------------------------------------------------------
// /contact

export interface ContactValues {
  tag: string;
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  privacy: boolean;
}

export function contactValues(overrides: Partial<ContactValues> = {}): ContactValues {
  const tag = overrides.tag ?? uniqueToken();
  return {
    tag,
    name: `Ramón Ibáñez Ortíz ${tag}`,
    email: uniqueEmail("contacto"),
    phone: "442 987 6543",
    subject: "Visita a planta en León",
    message: "Quisiéramos agendar una visita para conocer el área de maquinado y de inyección; somos tres ingenieros.",
    privacy: true,
    ...overrides,
  };
}

export function contactForm(page: Page) {
  const form = page.locator("form#contacto");
  return {
    form,
    name: form.getByLabel("Nombre", { exact: true }),
    email: form.getByLabel("Correo electrónico"),
    phone: form.getByLabel("Teléfono"),
    subject: form.getByLabel("Asunto"),
    message: form.getByLabel("Mensaje"),
    privacy: form.getByRole("checkbox", { name: /acepto el aviso de privacidad/ }),
    formErrors: form.locator("#contacto-error"),
    submit: form.getByRole("button", { name: /Enviar mensaje|Enviando/ }),
  };
}

export async function fillContactForm(page: Page, values: ContactValues): Promise<void> {
  const f = contactForm(page);
  await f.name.fill(values.name);
  await f.email.fill(values.email);
  await f.phone.fill(values.phone);
  await f.subject.fill(values.subject);
  await f.message.fill(values.message);
  await f.privacy.setChecked(values.privacy);
}

export async function expectContactValues(page: Page, values: ContactValues): Promise<void> {
  const f = contactForm(page);
  await expect(f.name).toHaveValue(values.name);
  await expect(f.email).toHaveValue(values.email);
  await expect(f.phone).toHaveValue(values.phone);
  await expect(f.subject).toHaveValue(values.subject);
  await expect(f.message).toHaveValue(values.message);
  if (values.privacy) await expect(f.privacy).toBeChecked();
  else await expect(f.privacy).not.toBeChecked();
}
