import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { baseUrl, createCustomer, type Customer } from "./accounts";
import { expect } from "./fixtures";
import { linkInMail, waitForMail } from "./mail";

// Quotes (issue 5) for the browser tests: customers whose email is confirmed (a quote joins an
// account only then), quotes made by staff through the admin pages' own form posts (never the
// database), the figures as the es-MX pages write them, and the PDF's text.

export const QUOTE_NUMBER = /COT-\d{4}-\d{4,}/;
export const CONFIRM_SUBJECT = /Confirme su correo/;
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The mail a sent (or revised) quote produces for the customer. */
export const quoteSentSubject = (number: string) => new RegExp(`^Cotización ${number} de Forja$`);
export const acceptedCustomerSubject = (number: string) => new RegExp(`^Aceptación registrada: cotización ${number}$`);
export const staffDecisionSubject = (number: string, decision: "Aceptada" | "Rechazada") => new RegExp(`^\\[${number}\\] ${decision} por `);
export const staffMessageSubject = (number: string) => new RegExp(`^\\[${number}\\] Mensaje de `);

export interface DraftLine {
  description: string;
  quantity: string;
  unit?: string;
  unitPrice: string;
  discount?: string;
}

export interface DraftValues {
  customerName: string;
  customerEmail: string;
  customerCompany?: string;
  lines: DraftLine[];
  leadTimeDays: string;
  validityDays?: string;
  terms?: string;
  notes?: string;
}

/**
 * The awkward line of the issue: 3 × $33.33 with 7.5 % off → $92.49 before IVA, $14.80 IVA,
 * $107.29 with IVA (each line rounded half up to the centavo).
 */
export const AWKWARD_LINE: DraftLine = {
  description: "Maquinado CNC de ménsula en aluminio 6061, anodizado natural",
  quantity: "3",
  unit: "pieza",
  unitPrice: "33.33",
  discount: "7.5",
};
/** A second line: 1 × $1,500.00 → $1,740.00 with IVA. */
export const DESIGN_LINE: DraftLine = { description: "Diseño del herramental de sujeción", quantity: "1", unit: "servicio", unitPrice: "1500.00", discount: "0" };
/** Both lines: $1,592.49 + $254.80 IVA. */
export const TWO_LINES_TOTAL = "$1,847.29";

/** How the pages write money: es-MX, MXN ("$1,847.29"). */
export function money(centavos: number): string {
  return new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" }).format(centavos / 100);
}

/** The staff detail's date format ("12 mar 2026"), the date part of formatDateTime. */
export function mediumDate(value = new Date()): string {
  return new Intl.DateTimeFormat("es-MX", { dateStyle: "medium", timeZone: "America/Mexico_City" }).format(value);
}

/**
 * A customer account whose email is confirmed: registered through the API with `request` (which
 * stays signed in), then the confirmation link from the test SMTP server is followed.
 */
export async function createConfirmedCustomer(request: APIRequestContext, overrides: Partial<Omit<Customer, "id">> = {}): Promise<Customer> {
  const customer = await createCustomer(request, overrides);
  await confirmEmail(request, customer.email);
  return customer;
}

/** Follows the (latest) confirmation link sent to `email` with this request context. */
export async function confirmEmail(request: APIRequestContext, email: string): Promise<void> {
  const mails = await waitForMail(email, { subject: CONFIRM_SUBJECT });
  const link = linkInMail(mails[mails.length - 1]!, "/cuenta/confirmar");
  const response = await request.get(link.pathname + link.search, { maxRedirects: 0 });
  expect(response.status(), `confirmación de ${email}`).toBe(200);
  expect(await response.text()).toContain("¡Correo confirmado!");
}

/** The builder's fields as the form posts them (conform's names: lines[0].unitPrice …). */
function builderForm(values: DraftValues, intent: "guardar" | "enviar"): Record<string, string> {
  const form: Record<string, string> = {
    intent,
    customerName: values.customerName,
    customerEmail: values.customerEmail,
    customerCompany: values.customerCompany ?? "",
    leadTimeDays: values.leadTimeDays,
    validityDays: values.validityDays ?? "30",
    terms: values.terms ?? "Precios en pesos mexicanos (MXN). Pago: 50 % de anticipo, 50 % antes de embarcar.",
    notes: values.notes ?? "",
  };
  values.lines.forEach((line, index) => {
    form[`lines[${index}].description`] = line.description;
    form[`lines[${index}].quantity`] = line.quantity;
    form[`lines[${index}].unit`] = line.unit ?? "pieza";
    form[`lines[${index}].unitPrice`] = line.unitPrice;
    form[`lines[${index}].discount`] = line.discount ?? "0";
  });
  return form;
}

export interface StaffQuote {
  id: string;
  number: string;
}

/**
 * A quote made the way staff make one in the panel, posted by a staff request context (maxRedirects
 * 0, see openStaffClient): "Nueva cotización" (blank draft), then the builder's "Enviar al cliente"
 * (or "Guardar borrador" with `send: false`).
 */
export async function staffCreateQuote(staff: APIRequestContext, values: DraftValues, options: { send?: boolean } = {}): Promise<StaffQuote> {
  const created = await staff.post("/admin/cotizaciones/nueva", { headers: { origin: baseUrl() }, form: {} });
  expect(created.status(), "Nueva cotización").toBe(302);
  const location = created.headers()["location"] ?? "";
  const id = new RegExp(`^/admin/cotizaciones/(${UUID.source})$`).exec(location)?.[1];
  expect(id, `redirect to the new draft (${location})`).toBeTruthy();
  const page = await staff.get(`/admin/cotizaciones/${id}`);
  expect(page.status()).toBe(200);
  const number = QUOTE_NUMBER.exec(await page.text())?.[0];
  expect(number, "the new quote's number").toBeTruthy();
  await staffSaveDraft(staff, id!, values, options.send === false ? "guardar" : "enviar");
  return { id: id!, number: number! };
}

/** Posts the builder of quote `id` (its draft revision): save, or save and send. */
export async function staffSaveDraft(staff: APIRequestContext, id: string, values: DraftValues, intent: "guardar" | "enviar"): Promise<void> {
  const response = await staff.post(`/admin/cotizaciones/${id}`, { headers: { origin: baseUrl() }, form: builderForm(values, intent) });
  if (intent === "enviar") {
    expect(response.status(), `enviar: ${response.status() === 302 ? "" : (await response.text()).slice(0, 500)}`).toBe(302);
    expect(response.headers()["location"]).toBe(`/admin/cotizaciones/${id}?enviada=1`);
  } else {
    expect(response.status()).toBe(200);
  }
}

/** A two-line quote for `customer` (the awkward line and a design line), sent unless `send: false`. */
export function sampleQuote(customer: { name: string; email: string; company?: string }, overrides: Partial<DraftValues> = {}): DraftValues {
  return {
    customerName: customer.name,
    customerEmail: customer.email,
    customerCompany: customer.company,
    lines: [AWKWARD_LINE, DESIGN_LINE],
    leadTimeDays: "12",
    ...overrides,
  };
}

/** The text of a PDF (all pages), extracted with unpdf. */
export async function pdfText(bytes: Uint8Array | Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

// ---------------------------------------------------------------------------------------------
// The customer's page, /quotes/{id}

export function acceptForm(page: Page) {
  const form = page.locator("form#aceptar");
  return {
    form,
    fullName: form.getByLabel("Su nombre completo (firma)"),
    terms: form.getByRole("checkbox", { name: /He leído las condiciones de la cotización/ }),
    submit: form.getByRole("button", { name: /Aceptar la cotización|Registrando su aceptación/ }),
  };
}

/** Types the signature, ticks the terms and clicks "Aceptar la cotización". */
export async function acceptQuoteInPage(page: Page, fullName: string): Promise<void> {
  const f = acceptForm(page);
  await f.fullName.fill(fullName);
  await f.terms.check();
  await f.submit.click();
}

/** The <dd> of a <dt> with exactly this text. */
export function definition(scope: Locator | Page, label: string): Locator {
  return scope.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);
}
