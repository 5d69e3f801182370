import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { baseUrl, signInStaffWithForm, uniqueEmail, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { clientHeaders, expect, test } from "./support/fixtures";
import {
  addToCartApi,
  createProduct,
  money,
  openStaffApi,
  placeOrderApi,
  pngImage,
  productJsonLd,
  setProductActive,
  signInStaffBrowser,
  stockOf,
  UUID,
  waitForAdminMarker,
  type TestProduct,
} from "./support/shop";
import { waitForHydration } from "./support/site";

// Issue 6 §1 and §4 (catalogue side): /catalogo's grid, filters, sort, search and pagination with
// the state in the URL, with and without JavaScript; the product page (stock wording, tile, JSON-LD
// with the price including IVA); staff products with an uploaded PNG turned into WebP variants, and
// deactivation. Seeded demo products are only read here; everything bought or changed is created by
// the test itself.

const SEEDED = {
  bridaSlipOn: { name: "Brida slip-on de acero al carbón 2 in clase 150, maquinada", slug: "brida-slip-on-acero-2-in-clase-150", gross: 129_000 },
  bridaCiega: { name: "Brida ciega de acero inoxidable 304, 3 in clase 150", gross: 289_000 },
  bujeBridado: { name: "Buje bridado de bronce sinterizado autolubricado, 20 mm", slug: "buje-bridado-bronce-sinterizado-20-mm" },
  bujesBronce: { name: "Bujes de bronce SAE 660, 1 × 1-1/4 × 1 in (juego de 4)" },
  gabinete: { name: "Gabinete de lámina rolada en frío 400 × 300 × 200 mm, IP54" },
  guarda: { name: "Guarda de policarbonato transparente 6 mm, 500 × 400 mm" },
};

function grid(page: Page): Locator {
  return page.getByRole("list", { name: "Productos" });
}

function cards(page: Page): Locator {
  return grid(page).getByRole("article");
}

async function cardNames(page: Page): Promise<string[]> {
  return grid(page).getByRole("heading", { level: 2 }).allTextContents();
}

/** "$1,290.00" → 129000. */
function centavos(text: string): number {
  return Math.round(Number(text.replace(/[^\d.]/g, "")) * 100);
}

async function gridPrices(page: Page): Promise<number[]> {
  return (await grid(page).getByTestId("precio-con-iva").allTextContents()).map(centavos);
}

function searchForm(page: Page) {
  const form = page.getByRole("search", { name: "Buscar en el catálogo" });
  return {
    form,
    q: form.getByRole("searchbox", { name: "Buscar" }),
    category: form.getByLabel("Categoría"),
    sort: form.getByLabel("Ordenar por"),
    submit: form.getByRole("button", { name: "Buscar" }),
  };
}

/** The page's bridas are in price order, and the two demo ones in the right order between them. */
async function expectSortedBridas(page: Page, direction: "asc" | "desc"): Promise<void> {
  await expect
    .poll(async () => {
      const prices = await gridPrices(page);
      const sorted = [...prices].sort((a, b) => (direction === "asc" ? a - b : b - a));
      const slipOn = prices.indexOf(SEEDED.bridaSlipOn.gross);
      const ciega = prices.indexOf(SEEDED.bridaCiega.gross);
      return JSON.stringify(prices) === JSON.stringify(sorted) && slipOn >= 0 && ciega >= 0 && (direction === "asc" ? slipOn < ciega : ciega < slipOn);
    })
    .toBe(true);
}

/**
 * The catalogue's state as the URL holds it. The GET form sends every field (an empty category, the
 * default order) and links leave defaults out: both mean the same view.
 */
async function expectCatalogueUrl(page: Page, state: { q?: string; categoria?: string; orden?: string; pagina?: string }): Promise<void> {
  const wanted = { path: "/catalogo", q: "", categoria: "", orden: "relevancia", pagina: "1", ...state };
  await expect
    .poll(() => {
      const url = new URL(page.url());
      const params = url.searchParams;
      return { path: url.pathname, q: params.get("q") ?? "", categoria: params.get("categoria") ?? "", orden: params.get("orden") || "relevancia", pagina: params.get("pagina") || "1" };
    })
    .toEqual(wanted);
  // Without JavaScript the address changes when the new document starts arriving: wait for all of it.
  await page.waitForLoadState("domcontentloaded");
}

async function search(page: Page, q: string): Promise<string[]> {
  const f = searchForm(page);
  await f.q.fill(q);
  await f.submit.click();
  await expectCatalogueUrl(page, { q });
  // The summary (or, without results, the empty state) names the search.
  await expect(page.locator("main")).toContainText(`«${q}»`);
  return cardNames(page);
}

test.describe("catálogo", () => {
  test("the grid shows prices with «IVA incluido»; category filter and price sort live in the URL", async ({ page }) => {
    const response = await page.goto("/catalogo");
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await expect(page.locator("h1")).toHaveText("Piezas estándar listas para pedir");
    // Every demo item is there (tests add more), each price with IVA, saying so.
    expect(await cards(page).count()).toBeGreaterThanOrEqual(13);
    const cardCount = await cards(page).count();
    await expect(grid(page).getByTestId("precio-con-iva")).toHaveCount(cardCount);
    await expect(grid(page).getByText("IVA incluido")).toHaveCount(cardCount);
    const brida = cards(page).filter({ hasText: SEEDED.bridaSlipOn.name });
    await expect(brida.getByTestId("precio-con-iva")).toHaveText(money(SEEDED.bridaSlipOn.gross));
    await expect(brida).toContainText("MXN por pieza · IVA incluido");
    await expect(brida).toContainText("SKU FOR-BRD-150");
    await expect(brida).toContainText("Pedido mínimo: 2 piezas");
    await expect(brida.getByRole("link", { name: SEEDED.bridaSlipOn.name })).toHaveAttribute("href", `/catalogo/${SEEDED.bridaSlipOn.slug}`);

    // Category: choosing it in the list applies it at once (with JavaScript).
    const f = searchForm(page);
    await f.category.selectOption("bridas-maquinadas");
    await expectCatalogueUrl(page, { categoria: "bridas-maquinadas" });
    await expect(page.locator("h1")).toHaveText("Bridas maquinadas");
    await expect(page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: /^Bridas maquinadas/ })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("catalogo-resumen")).toHaveText(/^\d+ productos en Bridas maquinadas\.$/);
    expect(await cardNames(page)).toEqual(expect.arrayContaining([SEEDED.bridaCiega.name, SEEDED.bridaSlipOn.name]));
    for (const category of await grid(page).locator("article > div > p:first-child").allTextContents()) expect(category).toBe("Bridas maquinadas");

    // Sort by price, both ways; the category stays.
    await f.sort.selectOption("precio-desc");
    await expectCatalogueUrl(page, { categoria: "bridas-maquinadas", orden: "precio-desc" });
    await expectSortedBridas(page, "desc");
    await f.sort.selectOption("precio-asc");
    await expectCatalogueUrl(page, { categoria: "bridas-maquinadas", orden: "precio-asc" });
    await expectSortedBridas(page, "asc");

    // The URL is the state: a reload and the back button give the same views.
    await page.reload();
    await waitForHydration(page);
    await expect(searchForm(page).category).toHaveValue("bridas-maquinadas");
    await expect(searchForm(page).sort).toHaveValue("precio-asc");
    await expectSortedBridas(page, "asc");
    await page.goBack();
    await expectCatalogueUrl(page, { categoria: "bridas-maquinadas", orden: "precio-desc" });
    await expectSortedBridas(page, "desc");

    // The whole catalogue by price: never decreasing.
    await page.goto("/catalogo?orden=precio-asc");
    const prices = await gridPrices(page);
    expect(prices.length).toBeGreaterThanOrEqual(13);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  test("pagination: 30 per page, the page in the URL, kept on reload and by the back button", async ({ page, playwright }) => {
    test.slow(); // 31 products made and withdrawn again
    const staff = await openStaffApi(playwright);
    const shared = `paginado${uniqueToken()}`;
    const made: TestProduct[] = [];
    try {
      for (let index = 1; index <= 31; index++) {
        made.push(await createProduct(staff, { label: `Separador ${shared} ${String(index).padStart(2, "0")}`, category: "Pruebas de paginación", stock: 20 }));
      }
      const names = made.map((product) => product.name);

      await page.goto(`/catalogo?${new URLSearchParams({ q: shared, orden: "nombre" })}`);
      await waitForHydration(page);
      await expect(page.getByTestId("catalogo-resumen")).toHaveText(`31 productos para «${shared}»; mostrando 1–30.`);
      expect(await cardNames(page)).toEqual(names.slice(0, 30));
      const pages = page.getByRole("navigation", { name: "Páginas del catálogo" });
      await expect(pages.locator('[aria-current="page"]')).toHaveText("Página 1");

      await pages.getByRole("link", { name: "Siguiente →" }).click();
      await expect(page).toHaveURL(`/catalogo?${new URLSearchParams({ q: shared, orden: "nombre", pagina: "2" })}`);
      await expect(page.getByTestId("catalogo-resumen")).toHaveText(`31 productos para «${shared}»; mostrando 31–31.`);
      expect(await cardNames(page)).toEqual([names[30]]);
      await expect(pages.locator('[aria-current="page"]')).toHaveText("Página 2");
      await expect(searchForm(page).q).toHaveValue(shared);
      await expect(searchForm(page).sort).toHaveValue("nombre");

      await page.reload();
      expect(await cardNames(page)).toEqual([names[30]]);
      // A person reads the reloaded page before going back; the page has taken over by then.
      await waitForHydration(page);
      await page.goBack();
      await expect(page).toHaveURL(`/catalogo?${new URLSearchParams({ q: shared, orden: "nombre" })}`);
      await expect.poll(() => cardNames(page)).toEqual(names.slice(0, 30));

      // Past the last page: a way back, not an error.
      const beyond = await page.goto(`/catalogo?${new URLSearchParams({ q: shared, orden: "nombre", pagina: "3" })}`);
      expect(beyond?.status()).toBe(200);
      await expect(page.getByTestId("catalogo-vacio")).toContainText("Esta página ya no tiene productos");
      await page.getByRole("link", { name: "Volver a la primera página" }).click();
      await expect(page).toHaveURL(`/catalogo?${new URLSearchParams({ q: shared, orden: "nombre" })}`);
    } finally {
      // Withdrawn again, so other tests' catalogue pages keep their usual size.
      for (const product of made) await setProductActive(staff, product.id, false);
      await staff.dispose();
    }
  });

  test("search ignores accents and case and finds partial words and SKUs", async ({ page }) => {
    await page.goto("/catalogo");
    await waitForHydration(page);

    const accented = await search(page, "laminá");
    expect(accented).toContain(SEEDED.gabinete.name);
    expect(await search(page, "lamina")).toEqual(accented);
    expect(await search(page, "LÁMINA")).toEqual(accented);

    expect(await search(page, "policarbonáto")).toContain(SEEDED.guarda.name);

    // Half a word: "brid" finds bridas and the flanged ("bridado") bushing.
    const partial = await search(page, "brid");
    expect(partial).toEqual(expect.arrayContaining([SEEDED.bridaSlipOn.name, SEEDED.bridaCiega.name, SEEDED.bujeBridado.name]));
    // Part of a SKU.
    expect(await search(page, "GAB-432")).toContain(SEEDED.gabinete.name);

    await search(page, "zzzsinresultados");
    await expect(page.getByTestId("catalogo-vacio")).toContainText("No encontramos productos para «zzzsinresultados»");
    await expect(page.getByTestId("catalogo-vacio")).toContainText("los acentos no importan");
  });

  test("without JavaScript: search, category and sort through the form's button and links", async ({ newClient }) => {
    const context = await newClient({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/catalogo");
    const f = searchForm(page);

    await f.q.fill("bronce");
    await f.submit.click();
    await expectCatalogueUrl(page, { q: "bronce" });
    expect(await cardNames(page)).toEqual(expect.arrayContaining([SEEDED.bujesBronce.name, SEEDED.bujeBridado.name]));

    await f.category.selectOption("bujes-y-cojinetes");
    await f.sort.selectOption("precio-desc");
    await f.submit.click();
    await expectCatalogueUrl(page, { q: "bronce", categoria: "bujes-y-cojinetes", orden: "precio-desc" });
    const bronze = await cardNames(page);
    expect(bronze.indexOf(SEEDED.bujesBronce.name), "$468.00 before $68.00").toBeLessThan(bronze.indexOf(SEEDED.bujeBridado.name));
    expect(bronze.indexOf(SEEDED.bujesBronce.name)).toBeGreaterThanOrEqual(0);
    const prices = await gridPrices(page);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));

    // Category chips are plain links; "Todas" keeps the search.
    await page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Todas" }).click();
    await expect(page).toHaveURL("/catalogo?q=bronce&orden=precio-desc");

    await cards(page).getByRole("link", { name: SEEDED.bujeBridado.name }).click();
    await expect(page).toHaveURL(`/catalogo/${SEEDED.bujeBridado.slug}`);
    await expect(page.locator("h1")).toHaveText(SEEDED.bujeBridado.name);
  });

  test("product pages: stock wording, the neutral tile, quantity bounds and JSON-LD with the price in MXN including IVA", async ({ page, playwright }) => {
    const staff = await openStaffApi(playwright);
    let plenty: TestProduct, few: TestProduct, last: TestProduct, none: TestProduct;
    try {
      plenty = await createProduct(staff, { label: "Escuadra existencia", stock: 50, minOrder: 5, netCentavos: 123_456, ivaBp: 1600 });
      few = await createProduct(staff, { label: "Placa frontera", stock: 4, netCentavos: 100_000, ivaBp: 800 });
      last = await createProduct(staff, { label: "Juego tasa cero", stock: 1, unit: "juego", netCentavos: 45_000, ivaBp: 0 });
      none = await createProduct(staff, { label: "Buje sobre pedido", stock: 0, netCentavos: 9_999 });
    } finally {
      await staff.dispose();
    }
    const cases = [
      { product: plenty, stock: "En existencia", availability: "https://schema.org/InStock", gross: 143_209, price: "1432.09" },
      { product: few, stock: "Últimas 4 piezas", availability: "https://schema.org/LimitedAvailability", gross: 108_000, price: "1080.00" },
      { product: last, stock: "Último juego", availability: "https://schema.org/LimitedAvailability", gross: 45_000, price: "450.00" },
      { product: none, stock: "Sobre pedido", availability: "https://schema.org/BackOrder", gross: 11_599, price: "115.99" },
    ];
    for (const { product, stock, availability, gross, price } of cases) {
      expect(product.grossCentavos, `${product.name}: the test's own IVA arithmetic`).toBe(gross);
      const response = await page.goto(`/catalogo/${product.slug}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator("h1")).toHaveText(product.name);
      await expect(page.getByTestId("existencia")).toHaveText(stock);
      await expect(page.getByTestId("precio-con-iva")).toHaveText(money(gross));
      await expect(page.locator("main")).toContainText(`MXN por ${product.unit} · IVA incluido`);
      await expect(page.locator("main")).toContainText(`${money(product.netCentavos)} antes de IVA`);
      // No photo: a neutral tile with the category and SKU.
      await expect(page.getByRole("img", { name: `Sin fotografía: ${product.category}, ${product.sku}` })).toBeVisible();

      const ld = await productJsonLd(page);
      expect(ld).toMatchObject({
        "@context": "https://schema.org",
        name: product.name,
        sku: product.sku,
        offers: {
          "@type": "Offer",
          price,
          priceCurrency: "MXN",
          availability,
          priceSpecification: { price, priceCurrency: "MXN", valueAddedTaxIncluded: true },
          eligibleQuantity: { minValue: product.minOrder },
        },
      });
      expect(String((ld.offers as { url: string }).url)).toMatch(new RegExp(`/catalogo/${product.slug}$`));

      const quantity = page.getByRole("spinbutton", { name: "Cantidad" });
      if (product.stock === 0) {
        // Nothing to add: a quote instead.
        await expect(quantity).toHaveCount(0);
        await expect(page.getByText("Sin existencia por ahora: se fabrica sobre pedido.")).toBeVisible();
        await expect(page.locator("main").getByRole("link", { name: "Solicitar cotización" }).first()).toHaveAttribute("href", "/cotiza");
      } else {
        await expect(quantity).toHaveAttribute("min", String(product.minOrder));
        await expect(quantity).toHaveAttribute("max", String(product.stock));
        await expect(quantity).toHaveValue(String(product.minOrder));
      }
    }

    // The same wording on the catalogue's cards.
    await page.goto(`/catalogo?${new URLSearchParams({ q: few.sku })}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText("Últimas 4 piezas");
    await expect(cards(page).getByTestId("precio-con-iva")).toHaveText(money(108_000));

    // A demo item: $1,290.00 with IVA in the page and in its structured data.
    await page.goto(`/catalogo/${SEEDED.bridaSlipOn.slug}`);
    await expect(page.getByTestId("precio-con-iva")).toHaveText("$1,290.00");
    expect(await productJsonLd(page)).toMatchObject({ sku: "FOR-BRD-150", offers: { price: "1290.00", priceCurrency: "MXN" } });

    // An unknown slug is a 404.
    expect((await page.goto("/catalogo/no-existe-este-producto"))?.status()).toBe(404);
  });

  test("staff create a product with a PNG: WebP srcset with width and height in the catalogue; deactivated, it is gone (404)", async ({ page, newClient }) => {
    test.slow(); // a staff sign-in, an upload converted by sharp and two browsers
    const token = uniqueToken();
    const name = `Escuadra con fotografía ${token}`;
    const sku = `E2E-FOTO-${token.toUpperCase()}`;
    const png = await pngImage(800, 600);

    await signInStaffWithForm(page);
    await expect(page).toHaveURL(/\/admin$/);
    await waitForAdminMarker(page);
    await page.goto("/admin/productos");
    await page.getByRole("link", { name: "Nuevo producto" }).click();
    await expect(page).toHaveURL("/admin/productos/nuevo");
    await expect(page.locator("h1")).toHaveText("Nuevo producto");
    await waitForHydration(page);

    const form = page.locator("form#producto");
    await form.getByLabel("Nombre", { exact: true }).fill(name);
    await form.getByLabel("SKU", { exact: true }).fill(sku.toLowerCase());
    await form.getByLabel("Categoría", { exact: true }).fill("Pruebas con fotografía");
    await form.getByLabel("Descripción corta").fill("Escuadra de prueba con una fotografía PNG convertida a WebP por el servidor.");
    await form.getByLabel("Descripción y especificaciones").fill("## Medidas\n- 100 × 100 mm\n- **Acero A36**");
    await form.getByLabel(/Precio neto por unidad/).fill("1000");
    await expect(form.getByTestId("precio-publico")).toHaveText("$1,160.00");
    await form.getByLabel("Tasa de IVA").selectOption("1600");
    await form.getByLabel("Existencia", { exact: true }).fill("25");
    await form.getByLabel("Pedido mínimo").fill("1");
    await form.getByLabel("Fotografías (PNG o JPG)").setInputFiles({ name: "escuadra.png", mimeType: "image/png", buffer: png });
    // A preview before uploading.
    await expect(form.getByRole("img", { name: "Vista previa de escuadra.png" })).toBeVisible();
    await form.getByLabel("Texto alternativo de las imágenes nuevas").fill(`Escuadra de acero vista de frente ${token}`);
    await form.getByRole("button", { name: "Crear producto" }).click();

    await expect(page).toHaveURL(new RegExp(`/admin/productos/(${UUID.source})\\?creado=1$`));
    const productId = new RegExp(UUID.source).exec(page.url())![0];
    await expect(page.getByText("Producto creado.", { exact: true })).toBeVisible();
    await expect(page.locator("h1")).toHaveText(name);
    // The SKU was upper-cased; the slug came from the name.
    await expect(page.locator("main")).toContainText(`SKU ${sku}`);
    const slug = `escuadra-con-fotografia-${token}`;
    await expect(page.getByRole("link", { name: "Ver en el catálogo" })).toHaveAttribute("href", `/catalogo/${slug}`);

    // A visitor sees it in the catalogue with its WebP variants.
    const visitor = await (await newClient()).newPage();
    await visitor.goto(`/catalogo?${new URLSearchParams({ q: sku })}`);
    await expect(cards(visitor)).toHaveCount(1);
    const cardImage = cards(visitor).locator("img");
    await expect(cardImage).toHaveAttribute("width", "800");
    await expect(cardImage).toHaveAttribute("height", "600");
    const srcset = (await cardImage.getAttribute("srcset"))!;
    const variants = srcset.split(",").map((entry) => entry.trim().split(/\s+/));
    const imageId = new RegExp(`/imagenes/productos/(${UUID.source})/`).exec(srcset)?.[1];
    expect(imageId, srcset).toBeTruthy();
    expect(variants).toEqual([320, 640, 800].map((width) => [`/imagenes/productos/${imageId}/${width}.webp`, `${width}w`]));
    expect(await cardImage.getAttribute("src")).toBe(`/imagenes/productos/${imageId}/640.webp`);
    expect(await cardImage.getAttribute("sizes")).toBeTruthy();
    await expect(cardImage).toHaveJSProperty("complete", true);
    expect(await cardImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    for (const [url, width] of variants) {
      const response = await visitor.request.get(url);
      expect(response.status(), url).toBe(200);
      expect(response.headers()["content-type"]).toBe("image/webp");
      expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      const metadata = await sharp(await response.body()).metadata();
      expect(metadata.format).toBe("webp");
      expect(`${metadata.width}w`).toBe(width);
      expect(metadata.height).toBe(Math.round((Number.parseInt(width!, 10) * 600) / 800));
    }

    // Its page: the photo with its alt text and size, in the structured data too; no violations.
    await visitor.goto(`/catalogo/${slug}`);
    const photo = visitor.getByRole("img", { name: `Escuadra de acero vista de frente ${token}` });
    await expect(photo).toHaveAttribute("width", "800");
    await expect(photo).toHaveAttribute("height", "600");
    await expect(photo).toHaveAttribute("srcset", srcset);
    await expect(photo).toHaveAttribute("loading", "eager");
    expect(((await productJsonLd(visitor)).image as string[])[0]).toMatch(new RegExp(`/imagenes/productos/${imageId}/800\\.webp$`));
    await expect(visitor.locator(".prose-forja strong")).toHaveText("Acero A36");
    await waitForHydration(visitor);
    expect(await axeViolations(visitor), "product page with a photo").toEqual([]);

    // Staff deactivate it.
    await page.getByRole("button", { name: "Desactivar producto" }).click();
    await expect(page.getByText("Producto desactivado: ya no aparece en el catálogo; los pedidos que lo incluyen lo conservan.", { exact: true })).toBeVisible();
    await expect(page.locator("main")).toContainText("· Inactivo ·");
    expect(page.url()).toContain(productId);

    await visitor.goto(`/catalogo?${new URLSearchParams({ q: sku })}`);
    await expect(cards(visitor)).toHaveCount(0);
    await expect(visitor.getByTestId("catalogo-vacio")).toContainText(`No encontramos productos para «${sku}»`);
    expect((await visitor.goto(`/catalogo/${slug}`))?.status()).toBe(404);
    expect((await visitor.request.get(`/imagenes/productos/${imageId}/320.webp`)).status()).toBe(404);
    // Staff still see the photo, never cached by shared caches.
    const staffImage = await page.request.get(`/imagenes/productos/${imageId}/320.webp`);
    expect(staffImage.status()).toBe(200);
    expect(staffImage.headers()["cache-control"]).toBe("private, no-store");
  });
});

test.describe("catálogo: HTML en caché con existencia al día", () => {
  test("the server keeps a product page and a search until the catalogue changes; an order shows the new stock at once", async ({ page, request, playwright }) => {
    const staff = await openStaffApi(playwright);
    const buyer = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders(), maxRedirects: 0 });
    try {
      const product = await createProduct(staff, { label: "Soporte en caché", stock: 5 });
      const pages = [`/catalogo/${product.slug}`, `/catalogo?${new URLSearchParams({ q: product.sku })}`];

      const etags: string[] = [];
      for (const path of pages) {
        const first = await request.get(path);
        expect(first.status(), path).toBe(200);
        expect(await first.text()).toContain("Últimas 5 piezas");
        const etag = first.headers()["etag"];
        expect(etag, `${path}: ETag of the kept HTML`).toMatch(/^"[\w-]{27}"$/);
        // The second visitor gets the very same document, and a revalidation costs nothing.
        expect((await request.get(path)).headers()["etag"]).toBe(etag);
        expect((await request.get(path, { headers: { "if-none-match": etag } })).status()).toBe(304);
        etags.push(etag);
      }

      // Someone else buys 2: the stock goes down in the database and the kept pages go with it.
      await addToCartApi(buyer, product.id, 2);
      await placeOrderApi(buyer, { name: "Rosa Compradora", email: uniqueEmail("cache"), phone: "4421112233", delivery: "recoger", paymentMethod: "recoger" });
      expect(await stockOf(staff, product.id)).toBe(3);

      for (const [index, path] of pages.entries()) {
        const after = await request.get(path, { headers: { "if-none-match": etags[index]! } });
        expect(after.status(), `${path} after the order`).toBe(200);
        const html = await after.text();
        expect(html).toContain("Últimas 3 piezas");
        expect(html).not.toContain("Últimas 5 piezas");
        expect(after.headers()["etag"]).not.toBe(etags[index]);
      }

      // Answers that are not pages are sent as rendered and never kept: a redirect and a 404.
      const upper = await request.get(`/catalogo/${product.slug.toUpperCase()}`, { maxRedirects: 0 });
      expect(upper.status()).toBe(301);
      expect(upper.headers()["location"]).toBe(`/catalogo/${product.slug}`);
      const missing = `/catalogo/${product.slug}-no-existe`;
      expect((await page.goto(missing))?.status()).toBe(404);
      await expect(page.locator("h1")).toHaveText("No encontramos esta página");
      await expect(page.getByTestId("error-message")).toHaveText(`Page not found: ${missing}`);
      await waitForHydration(page);
    } finally {
      await buyer.dispose();
      await staff.dispose();
    }
  });
});

test.describe("catálogo: accesibilidad", () => {
  test("/catalogo, a product page, /admin/productos and the product form (with its Spanish errors) have no WCAG 2.1 A/AA violations", async ({ page, newClient }) => {
    test.slow(); // seven axe runs
    await page.goto("/catalogo");
    await waitForHydration(page);
    expect(await axeViolations(page), "/catalogo").toEqual([]);
    await page.goto("/catalogo?q=brida&orden=precio-asc");
    await waitForHydration(page);
    expect(await axeViolations(page), "/catalogo with a search").toEqual([]);
    await page.goto(`/catalogo/${SEEDED.bridaSlipOn.slug}`);
    await waitForHydration(page);
    expect(await axeViolations(page), "product page").toEqual([]);
    await page.goto(`/catalogo/${SEEDED.bujeBridado.slug}`);
    await waitForHydration(page);
    expect(await axeViolations(page), "product page without stock").toEqual([]);

    const staffContext = await newClient();
    await signInStaffBrowser(staffContext);
    const staffPage = await staffContext.newPage();
    await staffPage.goto("/admin/productos");
    await waitForHydration(staffPage);
    await expect(staffPage.locator("h1")).toHaveText("Productos");
    expect(await axeViolations(staffPage), "/admin/productos").toEqual([]);
    await staffPage.goto("/admin/productos?q=FOR-BRD-150");

    await staffPage.getByRole("link", { name: SEEDED.bridaSlipOn.name }).click();
    await expect(staffPage.locator("h1")).toHaveText(SEEDED.bridaSlipOn.name);
    await waitForHydration(staffPage);
    expect(await axeViolations(staffPage), "the product form of an existing product").toEqual([]);

    await staffPage.goto("/admin/productos/nuevo");
    await waitForHydration(staffPage);
    const form = staffPage.locator("form#producto");
    await form.getByLabel("SKU", { exact: true }).fill("sku con espacios");
    await form.getByLabel(/Precio neto por unidad/).fill("-5");
    // Forms validate on submit (docs/decisions/0010): nothing shows before the first try.
    await expect(form.getByText("Escriba un precio mayor que cero en pesos, con hasta dos decimales; por ejemplo 1250.50.")).toBeHidden();
    await form.getByRole("button", { name: "Crear producto" }).click();
    await expect(form.getByText("Escriba el nombre del producto.")).toBeVisible();
    await expect(form.getByText("Use letras, números y guiones, por ejemplo FOR-BRD-150.")).toBeVisible();
    await expect(form.getByText("Escriba un precio mayor que cero en pesos, con hasta dos decimales; por ejemplo 1250.50.")).toBeVisible();
    await expect(form.getByLabel("Nombre", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("SKU", { exact: true })).toHaveValue("sku con espacios");
    await expect(staffPage).toHaveURL("/admin/productos/nuevo");
    expect(await axeViolations(staffPage), "the new-product form showing errors").toEqual([]);
  });
});
