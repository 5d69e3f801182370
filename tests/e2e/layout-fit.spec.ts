import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import routes from "../../app/routes";
import { binaryStlFile } from "../support/minimal-files";
import { uniqueToken } from "./support/accounts";
import { clientHeaders, expect, test as base } from "./support/fixtures";
import { createConfirmedCustomer, sampleQuote, staffCreateQuote } from "./support/quotes";
import { QUERETARO_ADDRESS, addToCartApi, createProduct, findOrders, openStaffApi, placeOrderApi, signInStaffBrowser, validRfc } from "./support/shop";
import { waitForHydration } from "./support/site";
import { MIN_FILL_WAIT_MS, fetchFormToken, findSolicitudes, quoteMultipart, quoteValues } from "./support/solicitudes";

// Issue 13 §2 "Pages that fit": every page of the site, at phone, tablet and desktop widths, as a
// visitor, a customer and staff. A page fails when the document scrolls sideways, when the visible
// text of one element lies on a link, button or field it does not belong to, when a header or
// sidebar item wraps onto a second line, or when a table wider than its box scrolls without a
// keyboard-focusable, named region around it. The page list is checked against app/routes.ts, so a
// new route is either measured here or named below as something that is not a page.

const WIDTHS = [360, 390, 768, 1024, 1280] as const;
const HEIGHT = 900;

type Role = "guest" | "customer" | "staff";
const ROLES: Role[] = ["guest", "customer", "staff"];

/** What the seeding below made: the records the dynamic pages show. */
interface Seeded {
  productSlug: string;
  productId: string;
  orderNumber: string;
  orderId: string;
  quoteId: string;
  draftQuoteId: string;
  solicitudId: string;
  solicitudNumber: string;
  /** From /sitemap.xml: the industries, the published content pages and the catalogue. */
  sitemap: string[];
  /** An industry's content record (long texts, lists and items), from the record API. */
  industryRecordId: string;
}

interface PageEntry {
  /** The route's full path as app/routes.ts writes it ("" for the home page). */
  route: string;
  role: Role;
  urls: (seeded: Seeded) => string[];
}

const fixed = (...urls: string[]) => () => urls;

/** Every page, with the account it is seen with and the real records it shows. */
const PAGES: PageEntry[] = [
  { route: "", role: "guest", urls: fixed("/") },
  { route: "about", role: "guest", urls: fixed("/about") },
  { route: "contact", role: "guest", urls: fixed("/contact") },
  { route: "contact/enviado", role: "guest", urls: fixed("/contact/enviado") },
  { route: "cotiza", role: "guest", urls: fixed("/cotiza") },
  { route: "cotiza/enviada", role: "guest", urls: (s) => [`/cotiza/enviada?folio=${s.solicitudNumber}`] },
  { route: "faqs", role: "guest", urls: fixed("/faqs") },
  { route: "catalogo", role: "guest", urls: fixed("/catalogo") },
  {
    route: "catalogo/:slug",
    role: "guest",
    // The product made here (a long name) and the first product of the demo catalogue.
    urls: (s) => [`/catalogo/${s.productSlug}`, ...s.sitemap.filter((path) => /^\/catalogo\/(?!e2e-)[^/]+$/.test(path)).slice(0, 1)],
  },
  { route: "carrito", role: "guest", urls: fixed("/carrito") },
  { route: "checkout", role: "guest", urls: fixed("/checkout") },
  { route: "servicios", role: "guest", urls: fixed("/servicios") },
  { route: "industrias", role: "guest", urls: fixed("/industrias") },
  { route: "industrias-design/:industry", role: "guest", urls: (s) => s.sitemap.filter((path) => path.startsWith("/industrias-design/")) },
  { route: "login", role: "guest", urls: fixed("/login") },
  { route: "login/codigo", role: "guest", urls: fixed("/login/codigo") },
  { route: "registro", role: "guest", urls: fixed("/registro") },
  { route: "recuperar", role: "guest", urls: fixed("/recuperar") },
  { route: "recuperar/nueva", role: "guest", urls: fixed("/recuperar/nueva?token=enlace-de-prueba") },
  { route: "cuenta/confirmar", role: "guest", urls: fixed("/cuenta/confirmar") },
  { route: "cuenta/confirmar-correo", role: "guest", urls: fixed("/cuenta/confirmar-correo") },
  { route: "auth/error", role: "guest", urls: fixed("/auth/error?error=access_denied") },
  { route: "__error", role: "guest", urls: fixed("/__error") },
  // The published content pages (aviso de privacidad, términos…): single-segment paths of the sitemap that no other route has.
  { route: ":slug", role: "guest", urls: (s) => s.sitemap.filter((path) => /^\/[^/]+$/.test(path) && !STATIC_TOP_LEVEL.has(path.slice(1))) },
  { route: "*", role: "guest", urls: fixed("/esta-pagina-no-existe/de-verdad") },
  { route: "admin/login", role: "guest", urls: fixed("/admin/login") },
  { route: "admin/bienvenida", role: "guest", urls: fixed("/admin/bienvenida?token=enlace-de-prueba") },

  { route: "cuenta", role: "customer", urls: fixed("/cuenta") },
  { route: "cuenta/pedidos", role: "customer", urls: fixed("/cuenta/pedidos") },
  { route: "checkout/confirmacion/:number", role: "customer", urls: (s) => [`/checkout/confirmacion/${s.orderNumber}`] },
  { route: "quotes", role: "customer", urls: fixed("/quotes") },
  { route: "quotes/:id", role: "customer", urls: (s) => [`/quotes/${s.quoteId}`] },

  { route: "admin", role: "staff", urls: fixed("/admin") },
  { route: "admin/formularios", role: "staff", urls: fixed("/admin/formularios") },
  { route: "admin/formularios/:id", role: "staff", urls: (s) => [`/admin/formularios/${s.solicitudId}`] },
  { route: "admin/clientes", role: "staff", urls: fixed("/admin/clientes") },
  { route: "admin/personal", role: "staff", urls: fixed("/admin/personal") },
  { route: "admin/sistema", role: "staff", urls: fixed("/admin/sistema") },
  { route: "admin/medios", role: "staff", urls: fixed("/admin/medios") },
  { route: "admin/pedidos", role: "staff", urls: fixed("/admin/pedidos") },
  { route: "admin/pedidos/:id", role: "staff", urls: (s) => [`/admin/pedidos/${s.orderId}`] },
  { route: "admin/productos", role: "staff", urls: fixed("/admin/productos") },
  { route: "admin/productos/:id", role: "staff", urls: (s) => [`/admin/productos/${s.productId}`, "/admin/productos/nuevo"] },
  { route: "admin/cotizaciones", role: "staff", urls: fixed("/admin/cotizaciones") },
  { route: "admin/cotizaciones/nueva", role: "staff", urls: (s) => [`/admin/cotizaciones/nueva?solicitud=${s.solicitudId}`] },
  // A sent quote (its record) and a draft (the builder).
  { route: "admin/cotizaciones/:id", role: "staff", urls: (s) => [`/admin/cotizaciones/${s.quoteId}`, `/admin/cotizaciones/${s.draftQuoteId}`] },
  { route: "admin/contenido", role: "staff", urls: fixed("/admin/contenido") },
  { route: "admin/contenido/:coleccion", role: "staff", urls: fixed("/admin/contenido/preguntas", "/admin/contenido/industrias") },
  { route: "admin/contenido/:coleccion/:id", role: "staff", urls: (s) => [`/admin/contenido/industrias/${s.industryRecordId}`, "/admin/contenido/preguntas/nuevo"] },
  { route: "admin/contenido/:coleccion/:id/historial", role: "staff", urls: (s) => [`/admin/contenido/industrias/${s.industryRecordId}/historial`] },
  { route: "admin/contenido/redirecciones", role: "staff", urls: fixed("/admin/contenido/redirecciones") },
  { route: "admin/contenido/redirecciones/:id", role: "staff", urls: fixed("/admin/contenido/redirecciones/nuevo") },
];

/** Routes that answer with something other than a page of their own: downloads, redirects, APIs. */
const NOT_PAGES = new Map<string, string>([
  ["salir", "sign-out: a POST, and GET redirects to /cuenta"],
  ["vista-cliente/terminar", "ends «Ver como cliente»: a POST that redirects to /admin/clientes"],
  ["connect/:provider", "redirects to the sign-in provider"],
  ["connect/:provider/redirect", "redirects to /auth/listo"],
  ["auth/:provider/callback", "the provider's callback: redirects"],
  ["auth/listo", "the sign-in popup's last step: closes itself, or goes on to /cuenta"],
  ["admin/formularios/exportar.csv", "a CSV download"],
  ["admin/formularios/:id/archivos/:fileId", "a file download"],
  ["admin/sistema/respaldos/:key", "a backup download"],
  ["quotes/:id/pdf", "a PDF download"],
  ["cuenta/tiempo-real", "a JSON token for the live pages"],
  ["admin/contenido/:coleccion/:id/bloqueo", "the content editor's lock: JSON answers to POSTs"],
  ["admin/contenido/ir", "«Editar esta página»: redirects to the record a public page shows"],
  ["admin/medios/biblioteca", "the content editor's image picker: the library as JSON"],
  ["imagenes/productos/:imageId/:file", "an image"],
  ["medios/:id/:variant", "an image of the media library"],
  ["catalogo/:slug/cad/:fingerprint/:file", "a CAD download"],
  ["sitemap.xml", "XML"],
  ["robots.txt", "text"],
]);

interface RouteNode {
  path?: string;
  index?: boolean;
  children?: RouteNode[];
}

/** Every path of app/routes.ts, joined with its parents' ("" is the home page). */
function routePaths(nodes: RouteNode[], parent = ""): string[] {
  return nodes.flatMap((node) => {
    const own = node.path ? [parent, node.path].filter(Boolean).join("/") : parent;
    const children = node.children ? routePaths(node.children, own) : [];
    return node.index || node.path !== undefined ? [own, ...children] : children;
  });
}

const ALL_ROUTES = [...new Set(routePaths(routes as RouteNode[]))];
const STATIC_TOP_LEVEL = new Set(ALL_ROUTES.filter((path) => path && !path.includes("/") && !path.includes(":") && path !== "*"));

// ---------------------------------------------------------------------------------------------
// What is measured in the page

interface Finding {
  kind: string;
  detail: string;
}

/** Runs in the page: everything that makes a page not fit its window, as findings. */
function measureLayout(): Finding[] {
  const findings: Finding[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    // Name the widest culprits: elements whose right edge is past the window (outermost first).
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const rect = element.getBoundingClientRect();
      if (rect.right > root.clientWidth + 1 && rect.width > 0 && !culprits.some((c) => element.parentElement?.closest(`[data-layout-culprit="${c}"]`))) {
        const label = describe(element);
        element.setAttribute("data-layout-culprit", label);
        culprits.push(label);
        if (culprits.length >= 4) break;
      }
    }
    // Or text that runs past its box (a long word in a narrow column).
    if (!culprits.length) {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node && culprits.length < 4; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getBoundingClientRect().right > root.clientWidth + 1 && node.parentElement) culprits.push(`texto «${node.textContent!.trim().slice(0, 40)}» en ${describe(node.parentElement).split(">")[0]}>`);
      }
    }
    findings.push({ kind: "scroll", detail: `el documento mide ${root.scrollWidth}px en una ventana de ${root.clientWidth}px; se salen: ${culprits.join(" | ")}` });
  }

  function describe(element: Element): string {
    const id = element.id ? `#${element.id}` : "";
    const cls = typeof element.className === "string" && element.className ? `.${element.className.trim().split(/\s+/).slice(0, 4).join(".")}` : "";
    const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}${id}${cls}>${text ? ` «${text}»` : ""}`;
  }

  type Box = { left: number; top: number; right: number; bottom: number };
  const clips = new Map<Element, Box | null>();
  const everything: Box = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });

  /** The part of the page where the element's contents can be seen (null: nothing of it is seen). */
  function visibleArea(element: Element): Box | null {
    if (clips.has(element)) return clips.get(element)!;
    const style = getComputedStyle(element);
    let area: Box | null;
    const parent = element.parentElement;
    // A closed <details> shows only its summary (its other children still report boxes).
    const inClosedDetails = parent instanceof HTMLDetailsElement && !parent.open && element.tagName !== "SUMMARY";
    if (inClosedDetails || style.display === "none" || Number(style.opacity) === 0) area = null;
    else if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") area = null;
    else {
      area = parent ? visibleArea(parent) : everything;
      if (area && style.overflowX !== "visible" && element !== document.body && element !== root) {
        const rect = element.getBoundingClientRect();
        const box = { left: rect.left + element.clientLeft, top: rect.top + element.clientTop, right: 0, bottom: 0 };
        box.right = box.left + element.clientWidth;
        box.bottom = box.top + element.clientHeight;
        area = intersect(area, box);
      }
      if (area && (area.right - area.left <= 1 || area.bottom - area.top <= 1)) area = null;
    }
    clips.set(element, area);
    return area;
  }

  const seen = (rect: DOMRect | Box, element: Element): Box | null => {
    const area = visibleArea(element);
    if (!area) return null;
    const box = intersect({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom }, area);
    return box.right - box.left > 1 && box.bottom - box.top > 1 ? box : null;
  };

  // Links, buttons and fields, each with the boxes where it is seen.
  const interactive = Array.from(document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link]"))
    .filter((element) => getComputedStyle(element).visibility === "visible")
    .map((element) => ({
      element,
      boxes: Array.from(element.getClientRects())
        .map((rect) => seen(rect, element.parentElement ?? element))
        .filter((box): box is Box => box !== null),
    }))
    .filter((entry) => entry.boxes.length > 0);

  // Visible text, one box per line of each text node.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts: { node: Text; parent: Element; boxes: Box[] }[] = [];
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const parent = node.parentElement;
    if (!parent || !node.data.trim() || parent.closest("script, style, noscript, template, title, option")) continue;
    if (getComputedStyle(parent).visibility !== "visible") continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = Array.from(range.getClientRects())
      .map((rect) => seen(rect, parent))
      .filter((box): box is Box => box !== null);
    if (boxes.length) texts.push({ node, parent, boxes });
  }

  const overlaps = new Set<string>();
  for (const text of texts) {
    for (const target of interactive) {
      if (target.element.contains(text.node)) continue;
      for (const a of text.boxes) {
        for (const b of target.boxes) {
          const box = intersect(a, b);
          if (box.right - box.left > 2 && box.bottom - box.top > 2) {
            overlaps.add(`«${text.node.data.replace(/\s+/g, " ").trim().slice(0, 40)}» (${describe(text.parent).split(">")[0]}>) sobre ${describe(target.element)}`);
          }
        }
      }
    }
  }
  for (const overlap of [...overlaps].slice(0, 6)) findings.push({ kind: "overlap", detail: overlap });

  // The header's and the admin sidebar's links and buttons keep their text on one line: every
  // line box of their text shares one band of height (a second line would sit below the first).
  const bars = "header a, header button, header summary, aside:has(nav[aria-label='Administración']) a, aside:has(nav[aria-label='Administración']) button";
  for (const element of Array.from(document.querySelectorAll<HTMLElement>(bars))) {
    if (!visibleArea(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(element);
    const boxes = Array.from(range.getClientRects())
      .map((rect) => seen(rect, element))
      .filter((box): box is Box => box !== null);
    if (boxes.length < 2) continue;
    const top = Math.max(...boxes.map((box) => box.top));
    const bottom = Math.min(...boxes.map((box) => box.bottom));
    if (top > bottom - 2) findings.push({ kind: "wrap", detail: `${describe(element)} no cabe en un renglón` });
  }

  // A table wider than its box scrolls in a region the keyboard reaches and a screen reader names.
  for (const table of Array.from(document.querySelectorAll<HTMLTableElement>("table"))) {
    if (!visibleArea(table)) continue;
    const box = table.parentElement!;
    if (table.offsetWidth <= box.clientWidth + 1) continue;
    let scroller: HTMLElement | null = table.parentElement;
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
    if (!scroller || scroller === document.body || scroller === root) {
      findings.push({ kind: "table", detail: `${describe(table)} (${table.offsetWidth}px) no cabe en su caja (${box.clientWidth}px) y no tiene una región que se desplace` });
    } else if (scroller.tabIndex < 0 || !(scroller.getAttribute("aria-label") || scroller.getAttribute("aria-labelledby"))) {
      findings.push({ kind: "table", detail: `${describe(table)} se desplaza en ${describe(scroller)} sin tabindex="0" o sin nombre accesible` });
    }
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Accounts and records, once per worker

async function openContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: "es-MX",
    timezoneId: "America/Mexico_City",
    extraHTTPHeaders: clientHeaders(),
  });
}

async function seed(contexts: Record<Role, BrowserContext>, staffApi: APIRequestContext): Promise<Seeded> {
  const customerRequest = contexts.customer.request;
  const token = uniqueToken();
  // Long, realistic names and addresses: what makes a narrow page overflow.
  const customer = await createConfirmedCustomer(customerRequest, {
    name: `María Guadalupe Fernández Villaseñor ${token}`,
    email: `compras.mantenimiento.planta.${token}@fundicionesyforjadosdelbajio.example`,
    company: `Fundiciones y Forjados del Bajío, S.A. de C.V. ${token}`,
    phone: "+52 442 555 0199",
  });
  // The request is sent by the customer; the form refuses posts sooner than 3 s after it was shown.
  const formToken = await fetchFormToken(customerRequest, "/cotiza");
  const shownAt = Date.now();

  const product = await createProduct(staffApi, { label: "Soporte maquinado para sensor de temperatura con barrenos roscados M6" });
  await addToCartApi(contexts.guest.request, product.id, 2);
  await addToCartApi(customerRequest, product.id, 3);
  const orderNumber = await placeOrderApi(customerRequest, {
    name: customer.name,
    email: customer.email,
    phone: customer.phone!,
    company: customer.company,
    delivery: "envio",
    paymentMethod: "spei",
    address: QUERETARO_ADDRESS,
    invoice: { rfc: validRfc("FFB990101AB"), razonSocial: customer.company!, regimenFiscal: "601", usoCfdi: "G03", codigoPostalFiscal: "76120" },
    notes: "Entregar en el andén de recepción de materiales; preguntar por el ingeniero de mantenimiento.",
  });
  const [order] = await findOrders(staffApi, orderNumber);
  expect(order, `el pedido ${orderNumber} en /admin/pedidos`).toBeTruthy();

  const quote = await staffCreateQuote(staffApi, sampleQuote(customer));
  const draft = await staffCreateQuote(staffApi, sampleQuote(customer), { send: false });

  const values = quoteValues({ tag: token, email: customer.email, name: customer.name, company: customer.company! });
  const wait = shownAt + MIN_FILL_WAIT_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const sent = await customerRequest.post("/api/cotiza", {
    multipart: quoteMultipart(values, formToken, [{ name: "soporte-de-montaje-para-sensor-de-temperatura-revision-C-final.stl", bytes: binaryStlFile() }]),
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const [solicitud] = await findSolicitudes(staffApi, values.tag);
  expect(solicitud, "la solicitud en /admin/formularios").toBeTruthy();

  const sitemap = await contexts.guest.request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  const paths = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const industries = await contexts.guest.request.get("/api/collections/industrias/records?perPage=1");
  expect(industries.status()).toBe(200);
  const [industry] = ((await industries.json()) as { items: { id: string }[] }).items;

  return {
    productSlug: product.slug,
    productId: product.id,
    orderNumber,
    orderId: order!.id,
    quoteId: quote.id,
    draftQuoteId: draft.id,
    solicitudId: solicitud!.id,
    solicitudNumber: solicitud!.number,
    sitemap: paths,
    industryRecordId: industry!.id,
  };
}

const test = base.extend<object, { site: { contexts: Record<Role, BrowserContext>; seeded: Seeded } }>({
  site: [
    async ({ browser, playwright }, use) => {
      const contexts = {
        guest: await openContext(browser),
        customer: await openContext(browser),
        staff: await openContext(browser),
      };
      await signInStaffBrowser(contexts.staff);
      const staffApi = await openStaffApi(playwright);
      try {
        const seeded = await seed(contexts, staffApi);
        await use({ contexts, seeded });
      } finally {
        await staffApi.dispose();
        for (const context of Object.values(contexts)) await context.close();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

async function measure(page: Page, url: string): Promise<Finding[]> {
  const response = await page.goto(url);
  const finalPath = new URL(page.url()).pathname;
  const requested = new URL(url, "http://x").pathname;
  // A page that sends the visitor elsewhere would be measured by mistake.
  if (finalPath !== requested) return [{ kind: "redirect", detail: `terminó en ${finalPath}` }];
  expect(response, url).not.toBeNull();
  await waitForHydration(page);
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(measureLayout);
}

test.describe("pages that fit", () => {
  test("every route of app/routes.ts is measured here or named as not a page", () => {
    const covered = new Set(PAGES.map((entry) => entry.route));
    const missing = ALL_ROUTES.filter((path) => !path.startsWith("api/") && !covered.has(path) && !NOT_PAGES.has(path));
    expect(missing, "routes without a layout check (add them to PAGES or NOT_PAGES)").toEqual([]);
    const stale = [...covered, ...NOT_PAGES.keys()].filter((path) => !ALL_ROUTES.includes(path));
    expect(stale, "entries for routes that no longer exist").toEqual([]);
  });

  for (const width of WIDTHS) {
    for (const role of ROLES) {
      test(`${role} pages fit at ${width}px`, async ({ site }) => {
        test.setTimeout(150_000);
        const { contexts, seeded } = site;
        const urls = PAGES.filter((entry) => entry.role === role).flatMap((entry) => {
          const list = entry.urls(seeded);
          expect(list.length, `${entry.route || "/"} has pages to measure`).toBeGreaterThan(0);
          return list;
        });
        if (role === "guest") {
          expect(urls.filter((url) => url.startsWith("/industrias-design/")), "the ten industry pages").toHaveLength(10);
          expect(urls, "the legal pages").toEqual(expect.arrayContaining(["/aviso-de-privacidad", "/terminos"]));
        }
        const page = await contexts[role].newPage();
        await page.setViewportSize({ width, height: HEIGHT });
        const failures: string[] = [];
        try {
          for (const url of urls) {
            for (const finding of await measure(page, url)) failures.push(`${url} [${finding.kind}] ${finding.detail}`);
          }
        } finally {
          await page.close();
        }
        expect(failures, `${failures.length} problemas a ${width}px`).toEqual([]);
      });
    }
  }
});
