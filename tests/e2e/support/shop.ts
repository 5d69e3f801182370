import sharp from "sharp";
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { ADMIN_MARKER_KEY, STAFF, baseUrl, signInApi, uniqueToken } from "./accounts";
import { clientHeaders } from "./fixtures";

// Catalogue, cart and checkout for the browser tests (issue 6): products made by staff through the
// admin form's own endpoint, carts and orders through the site's own forms, and the arithmetic the
// pages must show, computed here independently of the app (the test is the second opinion).

// ---------------------------------------------------------------------------------------------
// Money, RFC and the SPEI reference, written again from the rules (not imported from the app).

const mxn = new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" });

/** Centavos → "$1,290.00", as the site shows money. */
export function money(centavos: number): string {
  return mxn.format(centavos / 100);
}

/** n / d rounded half up (non-negative integers). */
function halfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

/** The unit price the catalogue shows: net plus its IVA rounded half up to the centavo. */
export function shownUnitPrice(netUnitCentavos: number, ivaBp: number): number {
  return Number(BigInt(netUnitCentavos) + halfUp(BigInt(netUnitCentavos) * BigInt(ivaBp), 10_000n));
}

/** One line: total = quantity × the shown price; net = total ÷ (1 + rate) rounded half up; IVA = the rest. */
export function lineFigures(quantity: number, netUnitCentavos: number, ivaBp: number): { net: number; iva: number; total: number } {
  const total = BigInt(quantity) * BigInt(shownUnitPrice(netUnitCentavos, ivaBp));
  const net = halfUp(total * 10_000n, 10_000n + BigInt(ivaBp));
  return { net: Number(net), iva: Number(total - net), total: Number(total) };
}

/** Subtotal, IVA and total: the sums of the rounded lines. */
export function orderFigures(lines: { quantity: number; product: { netCentavos: number; ivaBp: number } }[]) {
  const figures = lines.map((line) => lineFigures(line.quantity, line.product.netCentavos, line.product.ivaBp));
  const subtotal = figures.reduce((sum, line) => sum + line.net, 0);
  const iva = figures.reduce((sum, line) => sum + line.iva, 0);
  return { subtotal, iva, total: subtotal + iva };
}

const RFC_ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ";

/** SAT modulo-11 check digit of an RFC without it (11 characters for a persona moral, 12 for a física). */
export function rfcCheckDigit(withoutDigit: string): string {
  const chars = Array.from(withoutDigit.length === 11 ? ` ${withoutDigit}` : withoutDigit);
  if (chars.length !== 12) throw new Error(`RFC sin dígito de longitud inesperada: ${withoutDigit}`);
  const sum = chars.reduce((total, char, index) => total + RFC_ALPHABET.indexOf(char) * (13 - index), 0);
  const digit = 11 - (sum % 11);
  return digit === 11 ? "0" : digit === 10 ? "A" : String(digit);
}

/** A well-formed RFC with a correct check digit. */
export function validRfc(withoutDigit: string): string {
  return `${withoutDigit}${rfcCheckDigit(withoutDigit)}`;
}

/** The same RFC with a wrong check digit. */
export function rfcWithWrongDigit(withoutDigit: string): string {
  const right = rfcCheckDigit(withoutDigit);
  return `${withoutDigit}${right === "1" ? "2" : "1"}`;
}

/** PED-2026-0001 → PED202600011: the number without dashes plus a Luhn digit over its digits. */
export function speiReference(orderNumber: string): string {
  const compact = orderNumber.replace(/-/g, "");
  const digits = [...compact.replace(/\D/g, "")].map(Number).reverse();
  const sum = digits.reduce((total, digit, index) => {
    if (index % 2 === 1) return total + digit;
    const doubled = digit * 2;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${compact}${(10 - (sum % 10)) % 10}`;
}

/** The demo SPEI account the server uses when SPEI_* are not set (global-setup sets none). */
export const SPEI = { bank: "BBVA México", clabeDisplay: "012 180 00123456789 9", beneficiary: "Forja Diseño y Manufactura, S.A. de C.V." };

export const ORDER_NUMBER = /PED-\d{4}-\d{4,}/;

/** The current year in Mexico City (order numbers carry it). */
export function mexicoYear(): string {
  return new Intl.DateTimeFormat("en", { year: "numeric", timeZone: "America/Mexico_City" }).format(new Date());
}

// ---------------------------------------------------------------------------------------------
// Staff

/** A request context signed in as staff, from its own client IP, that does not follow redirects. Dispose it. */
export async function openStaffApi(playwright: PlaywrightWorkerArgs["playwright"]): Promise<APIRequestContext> {
  const client = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
  const { response } = await signInApi(client, STAFF.email, STAFF.password);
  expect(response.status(), "staff sign-in").toBe(200);
  return client;
}

/** Signs a browser context in as staff (API sign-in plus the admin area's browser marker). */
export async function signInStaffBrowser(context: BrowserContext): Promise<void> {
  const { response } = await signInApi(context.request, STAFF.email, STAFF.password);
  expect(response.status(), "staff sign-in").toBe(200);
  await context.addInitScript((key) => window.localStorage.setItem(key, "1"), ADMIN_MARKER_KEY);
}

/** After a staff sign-in through /admin/login: the admin area's browser marker is set. */
export async function waitForAdminMarker(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate((key) => window.localStorage.getItem(key), ADMIN_MARKER_KEY)).toBe("1");
}

export interface ProductSpec {
  name: string;
  sku: string;
  slug: string;
  category: string;
  shortDescription: string;
  description: string;
  /** Net unit price in centavos (before IVA). */
  netCentavos: number;
  ivaBp: 1600 | 800 | 0;
  unit: "pieza" | "juego" | "kit" | "par" | "metro" | "kg" | "lote";
  stock: number;
  minOrder: number;
  active: boolean;
}

export interface TestProduct extends ProductSpec {
  id: string;
  /** One unit with IVA, as the public sees it. */
  grossCentavos: number;
}

/** A product no other test uses: unique name, SKU and slug (the token is in all three, and searchable). */
export function productSpec(overrides: Partial<ProductSpec> & { label?: string } = {}): ProductSpec {
  const token = uniqueToken();
  const { label = "Pieza de prueba", ...rest } = overrides;
  return {
    name: `${label} ${token}`,
    sku: `E2E-${token.toUpperCase()}`,
    slug: `e2e-${token}`,
    category: "Pruebas E2E",
    shortDescription: "Pieza creada por las pruebas de navegador para comprar sin tocar el catálogo de demostración.",
    description: "## Especificaciones\n- Acero 1018 maquinado.\n- Tolerancia ISO 2768-m.",
    netCentavos: 100_000,
    ivaBp: 1600,
    unit: "pieza",
    stock: 50,
    minOrder: 1,
    active: true,
    ...rest,
  };
}

function pesos(centavos: number): string {
  return (centavos / 100).toFixed(2);
}

/** The product form's fields, as /admin/productos/nuevo posts them (multipart). */
export function productMultipart(spec: ProductSpec, images: { name: string; bytes: Buffer; type?: string }[] = []): FormData {
  const form = new FormData();
  form.set("name", spec.name);
  form.set("sku", spec.sku);
  form.set("slug", spec.slug);
  form.set("category", spec.category);
  form.set("shortDescription", spec.shortDescription);
  form.set("description", spec.description);
  form.set("price", pesos(spec.netCentavos));
  form.set("ivaBp", String(spec.ivaBp));
  form.set("unit", spec.unit);
  form.set("stock", String(spec.stock));
  form.set("minOrder", String(spec.minOrder));
  if (spec.active) form.set("active", "on");
  form.set("imageAlt", "");
  for (const image of images) form.append("images", new File([new Uint8Array(image.bytes)], image.name, { type: image.type ?? "image/png" }));
  return form;
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Creates a product by posting the staff product form (the endpoint /admin/productos/nuevo's page submits). */
export async function createProduct(staff: APIRequestContext, overrides: Partial<ProductSpec> & { label?: string } = {}): Promise<TestProduct> {
  const spec = productSpec(overrides);
  const response = await staff.post("/admin/productos/nuevo", { headers: { origin: baseUrl() }, multipart: productMultipart(spec) });
  const location = response.headers()["location"] ?? "";
  expect(response.status(), `alta de ${spec.sku}: ${response.status() === 200 || response.status() === 400 ? await response.text() : location}`).toBe(302);
  const id = new RegExp(`^/admin/productos/(${UUID.source})\\?creado=1$`).exec(location)?.[1];
  expect(id, `redirección tras el alta: ${location}`).toBeTruthy();
  return { ...spec, id: id!, grossCentavos: lineFigures(1, spec.netCentavos, spec.ivaBp).total };
}

/** Activates or deactivates a product from its staff page. */
export async function setProductActive(staff: APIRequestContext, id: string, active: boolean): Promise<void> {
  const response = await staff.post(`/admin/productos/${id}`, { headers: { origin: baseUrl() }, form: { intent: active ? "activar" : "desactivar" } });
  expect(response.status()).toBe(200);
}

/** The current stock of a product as staff see it on its form. */
export async function stockOf(staff: APIRequestContext, id: string): Promise<number> {
  const response = await staff.get(`/admin/productos/${id}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const match = /<input[^>]*name="stock"[^>]*>/.exec(html)?.[0];
  const value = match ? /value="(\d+)"/.exec(match)?.[1] : undefined;
  expect(value, "el campo Existencia del formulario").toBeTruthy();
  return Number(value);
}

export interface ListedOrder {
  id: string;
  number: string;
}

/** Orders /admin/pedidos lists for a search (number, reference, name, email or RFC). */
export async function findOrders(staff: APIRequestContext, q: string): Promise<ListedOrder[]> {
  const response = await staff.get(`/admin/pedidos?${new URLSearchParams({ q })}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  return [...html.matchAll(new RegExp(`href="/admin/pedidos/(${UUID.source})"[^>]*>(PED-\\d{4}-\\d{4,})</a>`, "g"))].map((match) => ({ id: match[1], number: match[2] }));
}

// ---------------------------------------------------------------------------------------------
// Images

/** A real PNG of `width` × `height` pixels (a gradient, so it is not trivially compressible). */
export async function pngImage(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = 120;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Cart and checkout without a browser (same forms, same cookies)

/** Adds to the cart of this request context (POST /carrito, intent agregar, as the product page does). */
export async function addToCartApi(client: APIRequestContext, productId: string, quantity: number): Promise<void> {
  const response = await client.post("/carrito", { headers: { origin: baseUrl() }, form: { intent: "agregar", productId, quantity: String(quantity) }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe("/carrito");
}

/** The header's count for this request context. */
export async function cartQuantityApi(client: APIRequestContext): Promise<number> {
  const response = await client.get("/api/carrito");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { quantity: number } }).data.quantity;
}

export interface CheckoutFields {
  name: string;
  email: string;
  phone: string;
  company?: string;
  delivery: "recoger" | "envio";
  paymentMethod: "spei" | "recoger";
  address?: { calle: string; numero: string; colonia: string; codigoPostal: string; municipio: string; estado: string; referencias?: string };
  invoice?: { rfc: string; razonSocial: string; regimenFiscal: string; usoCfdi: string; codigoPostalFiscal: string };
  notes?: string;
}

/** GET /checkout: its one-time token and the total it shows (the hidden fields the form posts). */
export async function checkoutTokenApi(client: APIRequestContext): Promise<{ formToken: string; expectedTotal: string }> {
  const response = await client.get("/checkout", { maxRedirects: 0 });
  expect(response.status(), "/checkout con productos en el carrito").toBe(200);
  const html = await response.text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(html)?.[1];
  const expectedTotal = /name="expectedTotal" value="(\d+)"/.exec(html)?.[1];
  expect(formToken && expectedTotal, "formToken y expectedTotal en /checkout").toBeTruthy();
  return { formToken: formToken!, expectedTotal: expectedTotal! };
}

export function checkoutForm(fields: CheckoutFields, hidden: { formToken: string; expectedTotal: string }): Record<string, string> {
  const form: Record<string, string> = {
    ...hidden,
    name: fields.name,
    email: fields.email,
    phone: fields.phone,
    company: fields.company ?? "",
    delivery: fields.delivery,
    paymentMethod: fields.paymentMethod,
    notes: fields.notes ?? "",
    sitio_web: "",
  };
  if (fields.address) Object.assign(form, fields.address);
  if (fields.invoice) Object.assign(form, { requiereFactura: "on", ...fields.invoice });
  return form;
}

/** Places an order from this request context's cart, like the /checkout page; returns its number. */
export async function placeOrderApi(client: APIRequestContext, fields: CheckoutFields): Promise<string> {
  const hidden = await checkoutTokenApi(client);
  const response = await client.post("/checkout", { headers: { origin: baseUrl() }, form: checkoutForm(fields, hidden), maxRedirects: 0 });
  const location = response.headers()["location"] ?? "";
  expect(response.status(), `pedido: ${response.status() === 302 ? location : (await response.text()).slice(0, 300)}`).toBe(302);
  const number = /^\/checkout\/confirmacion\/(PED-\d{4}-\d{4,})$/.exec(location)?.[1];
  expect(number, location).toBeTruthy();
  return number!;
}

// ---------------------------------------------------------------------------------------------
// Pages

/** The header's cart link (desktop; the mobile header holds a second one). */
export function headerCartLink(page: Page): Locator {
  return page.getByRole("banner").getByTestId("cart-link").first();
}

/** /checkout's fields. */
export function checkoutPage(page: Page) {
  const form = page.locator("form#checkout");
  return {
    form,
    name: form.getByLabel("Nombre completo"),
    email: form.getByLabel("Correo electrónico"),
    phone: form.getByLabel("Teléfono o WhatsApp"),
    company: form.getByLabel("Empresa"),
    // By value: "Recoger en planta" is also part of "Pago al recoger en planta".
    delivery: (value: "recoger" | "envio") => form.locator(`input[type="radio"][name="delivery"][value="${value}"]`),
    calle: form.getByLabel("Calle", { exact: true }),
    numero: form.getByLabel("Número", { exact: true }),
    colonia: form.getByLabel("Colonia"),
    codigoPostal: form.getByLabel("Código postal", { exact: true }),
    municipio: form.getByLabel("Municipio o alcaldía"),
    estado: form.getByLabel("Estado", { exact: true }),
    referencias: form.getByLabel(/Referencias para el repartidor/),
    factura: form.getByRole("checkbox", { name: /¿Requiere factura\?/ }),
    rfc: form.getByLabel("RFC", { exact: true }),
    codigoPostalFiscal: form.getByLabel("Código postal fiscal"),
    razonSocial: form.getByLabel("Nombre o razón social"),
    regimen: form.getByLabel("Régimen fiscal"),
    uso: form.getByLabel("Uso del CFDI"),
    payment: (value: "spei" | "recoger") => form.locator(`input[type="radio"][name="paymentMethod"][value="${value}"]`),
    notes: form.getByLabel(/Notas del pedido/),
    /** The form-level error (field errors sit under their fields, without a role). */
    formErrors: form.getByRole("alert"),
    submit: form.getByRole("button", { name: /Confirmar pedido por|Confirmando su pedido/ }),
  };
}

/**
 * Types into a field and leaves it. With JavaScript the form checks a field when it is left, and an
 * error appearing under it moves everything below: leaving it here (not by the next click) keeps
 * the next click on its target.
 */
async function type(field: Locator, value: string): Promise<void> {
  await field.fill(value);
  await field.blur();
}

/** Fills /checkout (the page must be open); fields left undefined keep what the page shows. */
export async function fillCheckout(page: Page, fields: Partial<CheckoutFields>): Promise<void> {
  const f = checkoutPage(page);
  if (fields.name !== undefined) await type(f.name, fields.name);
  if (fields.email !== undefined) await type(f.email, fields.email);
  if (fields.phone !== undefined) await type(f.phone, fields.phone);
  if (fields.company !== undefined) await type(f.company, fields.company);
  if (fields.delivery) await f.delivery(fields.delivery).check();
  if (fields.address) {
    await type(f.calle, fields.address.calle);
    await type(f.numero, fields.address.numero);
    await type(f.colonia, fields.address.colonia);
    await type(f.codigoPostal, fields.address.codigoPostal);
    await type(f.municipio, fields.address.municipio);
    await f.estado.selectOption(fields.address.estado);
    if (fields.address.referencias !== undefined) await type(f.referencias, fields.address.referencias);
  }
  if (fields.invoice) {
    await f.factura.check();
    await type(f.rfc, fields.invoice.rfc);
    await type(f.codigoPostalFiscal, fields.invoice.codigoPostalFiscal);
    await type(f.razonSocial, fields.invoice.razonSocial);
    await f.regimen.selectOption(fields.invoice.regimenFiscal);
    await f.uso.selectOption(fields.invoice.usoCfdi);
  }
  if (fields.paymentMethod) await f.payment(fields.paymentMethod).check();
  if (fields.notes !== undefined) await type(f.notes, fields.notes);
}

export const QUERETARO_ADDRESS = {
  calle: "Av. de la Luz",
  numero: "1500 Int. 4",
  colonia: "Parque Industrial Benito Juárez",
  codigoPostal: "76120",
  municipio: "Querétaro",
  estado: "Querétaro",
  referencias: "Andén 3, de 8:00 a 17:00",
};

/** The product page's add-to-cart form: sets the quantity and submits. */
export async function addToCartOnPage(page: Page, quantity: number): Promise<void> {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Agregar al carrito" }) });
  await form.getByLabel("Cantidad").fill(String(quantity));
  await form.getByRole("button", { name: "Agregar al carrito" }).click();
  await page.waitForURL((url) => url.pathname === "/carrito");
}

/** The Product object of the page's JSON-LD. */
export async function productJsonLd(page: Page): Promise<Record<string, unknown>> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const product = blocks.map((text) => JSON.parse(text) as Record<string, unknown>).find((data) => data["@type"] === "Product");
  expect(product, "un bloque JSON-LD de tipo Product").toBeTruthy();
  return product!;
}
