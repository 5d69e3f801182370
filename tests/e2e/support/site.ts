import { expect, type Page, type Request } from "@playwright/test";

// The route table of issue 2, with the Spanish heading each page is designed to show.

export interface PublicPage {
  path: string;
  h1: RegExp;
}

export const PUBLIC_PAGES: PublicPage[] = [
  { path: "/", h1: /Diseñamos y fabricamos sus piezas/ },
  { path: "/about", h1: /Ingeniería y manufactura bajo un mismo techo/ },
  { path: "/contact", h1: /Hable con un ingeniero de Forja/ },
  { path: "/cotiza", h1: /Solicite una cotización/ },
  { path: "/faqs", h1: /Respuestas antes de cotizar/ },
  { path: "/catalogo", h1: /Piezas estándar listas para pedir/ },
  { path: "/checkout", h1: /Finalizar compra/ },
  { path: "/servicios", h1: /Del concepto a la pieza terminada/ },
  { path: "/industrias", h1: /Conocemos las normas y los materiales de su sector/ },
  { path: "/login", h1: /Iniciar sesión/ },
  { path: "/admin/login", h1: /Acceso del personal/ },
  { path: "/aviso-de-privacidad", h1: /Aviso de privacidad/ },
  { path: "/terminos", h1: /Términos y condiciones/ },
];

/** Pages that need an account: until accounts exist, every visit lands on the matching login. */
export const PROTECTED_PAGES = [
  { path: "/quotes", login: "/login" },
  { path: "/quotes/123", login: "/login" },
  { path: "/admin", login: "/admin/login" },
  { path: "/admin/formularios", login: "/admin/login" },
];

/** Each industry page: its slug, its name and its <title> (without « | Forja»). */
export const INDUSTRIES = [
  { slug: "aeroespacial", name: "Aeroespacial", title: "Diseño y manufactura para la industria aeroespacial" },
  { slug: "agricola", name: "Agrícola", title: "Diseño y manufactura para el sector agrícola" },
  { slug: "alimentos", name: "Alimentos y bebidas", title: "Diseño y manufactura para la industria de alimentos y bebidas" },
  { slug: "automotriz", name: "Automotriz", title: "Diseño y manufactura para la industria automotriz" },
  { slug: "construccion", name: "Construcción", title: "Diseño y manufactura para el sector de la construcción" },
  { slug: "electronica", name: "Electrónica", title: "Diseño y manufactura para la industria electrónica" },
  { slug: "energia", name: "Energía", title: "Diseño y manufactura para el sector energético" },
  { slug: "industrial", name: "Industrial", title: "Diseño y manufactura para el sector industrial" },
  { slug: "medica", name: "Médica", title: "Diseño y manufactura para el sector médico" },
  { slug: "minera", name: "Minera", title: "Diseño y manufactura para la minería" },
];

export const RELOAD_GUARD_KEY = "forja:reload-guard";

/**
 * Resolves once the app has hydrated: the root layout sets `data-hydrated` on <html> from
 * useHydrated() after the first client render commits, and React Router's router is ready.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
  await page.waitForFunction(() => {
    const router = (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } })
      .__reactRouterDataRouter;
    return Boolean(router?.state.initialized);
  });
}

/** Records every main-frame document request, to tell full page loads from client navigations. */
export function trackDocumentRequests(page: Page): string[] {
  const documents: string[] = [];
  page.on("request", (request: Request) => {
    if (request.resourceType() === "document" && request.frame() === page.mainFrame()) documents.push(request.url());
  });
  return documents;
}

/** Puts a marker on `window` that only survives client-side navigations. */
export async function setWindowMarker(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __forjaMarker?: number }).__forjaMarker = 1;
  });
}

export async function hasWindowMarker(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __forjaMarker?: number }).__forjaMarker === 1);
}

/**
 * On a hydrated page, clicks the main menu's «Preguntas frecuentes» with the FAQs chunk (`chunk`, a
 * URL pattern) refused once, and checks what the navigation guard does: the navigation becomes a
 * full load of /faqs, under the reload guard.
 */
export async function expectFaqsFullLoadWhenChunkFails(page: Page, chunk: string): Promise<void> {
  let aborted = 0;
  await page.route(
    chunk,
    (route) => {
      aborted += 1;
      return route.abort();
    },
    { times: 1 },
  );
  const documents = trackDocumentRequests(page);
  await setWindowMarker(page);

  await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Preguntas frecuentes" }).click();
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.locator("h1")).toHaveText(/Respuestas antes de cotizar/);
  await expect.poll(() => documents).toContainEqual(expect.stringMatching(/\/faqs$/));
  expect(aborted).toBe(1);
  expect(await hasWindowMarker(page), "a new document was loaded").toBe(false);
  const guard = await page.evaluate((key) => Number(sessionStorage.getItem(key)), RELOAD_GUARD_KEY);
  expect(Date.now() - guard).toBeLessThan(30_000);
}

/**
 * The editor's save status: «{what} a las 3:05 p.m.», or «a la 1:05» at one o'clock (atTime in
 * app/lib/format.ts), whatever hour the tests run at.
 */
export const savedAtTime = (what: string): RegExp => new RegExp(`^${what} a las? \\d{1,2}:\\d{2}`);
