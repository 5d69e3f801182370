import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { addToCartApi, createProduct, money, openStaffApi, placeOrderApi, shownUnitPrice } from "./support/shop";

// On a phone (390 × 844): an order's lines show every figure, the line's amount inside the window
// and without a box that scrolls sideways; the footer's links and the forms' checkboxes and radio
// buttons are at least 24 × 24 CSS px to tap (WCAG 2.5.8).

const PHONE = { width: 390, height: 844 };
const MIN_TARGET = 24;

test.use({ viewport: PHONE });

/** Every visible match's box, named for the failure message. */
async function boxesOf(locator: Locator, name: (element: Locator) => Promise<string>) {
  const boxes: { name: string; width: number; height: number }[] = [];
  for (const element of await locator.all()) {
    if (!(await element.isVisible())) continue;
    const box = await element.boundingBox();
    expect(box, await name(element)).not.toBeNull();
    boxes.push({ name: await name(element), width: box!.width, height: box!.height });
  }
  return boxes;
}

async function expectTapTargets(locator: Locator, what: string): Promise<number> {
  const boxes = await boxesOf(locator, async (element) => `${what}: ${(await element.getAttribute("href")) ?? (await element.getAttribute("name")) ?? ""} «${((await element.textContent()) ?? "").trim()}»`);
  for (const box of boxes) {
    expect(box.height, `${box.name} mide ${box.height}px de alto`).toBeGreaterThanOrEqual(MIN_TARGET);
    expect(box.width, `${box.name} mide ${box.width}px de ancho`).toBeGreaterThanOrEqual(MIN_TARGET);
  }
  return boxes.length;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(clientWidth);
}

test("the order confirmation's lines show the line's amount inside a 390 px window, with quantity × unit price stacked", async ({ page, playwright }) => {
  const staff = await openStaffApi(playwright);
  try {
    // $1,112.07 net at 16 % → $1,290.00 with IVA; three of them: $3,870.00.
    const product = await createProduct(staff, { label: "Brida ciega de acero al carbón para tubería de 4 pulgadas", netCentavos: 111_207, ivaBp: 1600, stock: 20 });
    const unitPrice = shownUnitPrice(product.netCentavos, product.ivaBp);
    expect(unitPrice).toBe(129_000);
    // As a guest: the browser that placed the order may see its confirmation.
    await addToCartApi(page.context().request, product.id, 3);
    const number = await placeOrderApi(page.context().request, { name: "Rosa Celular", email: `rosa.celular.${Date.now()}@empresa.example`, phone: "4421239876", delivery: "recoger", paymentMethod: "spei" });

    await page.goto(`/checkout/confirmacion/${number}`);
    const lines = page.getByRole("table", { name: `Productos del pedido ${number}` });
    const row = lines.getByRole("row").filter({ hasText: product.name });
    await expect(row.getByTestId("order-line-detail")).toBeVisible();
    await expect(row.getByTestId("order-line-detail")).toHaveText(`3 piezas × ${money(unitPrice)}`);
    await expect(row).toContainText("IVA incluido:");
    const total = row.getByTestId("order-line-total");
    await expect(total).toBeVisible();
    await expect(total).toHaveText(money(3 * unitPrice));
    // Only «Producto» and «Importe con IVA» head the columns on a phone.
    await expect(lines.getByRole("columnheader")).toHaveText(["Producto", "Importe con IVA"]);

    // Inside the window and inside its box, which does not scroll sideways.
    const box = await total.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    const region = page.getByRole("region", { name: `Productos del pedido ${number}` });
    const scroll = await region.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, right: element.getBoundingClientRect().right }));
    expect(scroll.scrollWidth, "the lines' box scrolls sideways").toBeLessThanOrEqual(scroll.clientWidth);
    expect(box!.x + box!.width).toBeLessThanOrEqual(scroll.right);
    await expectNoSidewaysScroll(page);

    // On a wide screen the same lines show the five columns, with the same figures.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(lines.getByRole("columnheader")).toHaveText(["Producto", "Cantidad", "Precio unitario con IVA", "IVA incluido", "Importe con IVA"]);
    await expect(row.getByTestId("order-line-detail")).toBeHidden();
    await expect(row.getByRole("cell")).toHaveText([new RegExp(product.name), "3 piezas", money(unitPrice), /\(16 %\)/, money(3 * unitPrice)]);
  } finally {
    await staff.dispose();
  }
});

test("the footer's links are at least 24 × 24 px to tap", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Aviso de privacidad" })).toBeVisible();
  // Contact (phone, WhatsApp, email), the site's pages and the legal links.
  expect(await expectTapTargets(footer.getByRole("link"), "enlace del pie")).toBeGreaterThanOrEqual(8);
  await expectNoSidewaysScroll(page);
});

test("the forms' checkboxes and radio buttons are at least 24 × 24 px to tap", async ({ page, playwright }) => {
  const targets = (scope: Locator) => scope.locator('input[type="checkbox"], input[type="radio"]');

  await page.goto("/contact");
  await expect(page.getByRole("checkbox", { name: /aviso de privacidad/ })).toBeVisible();
  expect(await expectTapTargets(targets(page.getByRole("main")), "/contact")).toBeGreaterThanOrEqual(1);

  await page.goto("/cotiza");
  await expect(page.getByRole("checkbox", { name: "Requiero acuerdo de confidencialidad" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /aviso de privacidad/ })).toBeVisible();
  expect(await expectTapTargets(targets(page.getByRole("main")), "/cotiza")).toBeGreaterThanOrEqual(2);
  await expectNoSidewaysScroll(page);

  await page.goto("/registro");
  await expect(page.getByRole("checkbox", { name: /aviso de privacidad/ })).toBeVisible();
  expect(await expectTapTargets(targets(page.getByRole("main")), "/registro")).toBeGreaterThanOrEqual(1);

  const staff = await openStaffApi(playwright);
  try {
    const product = await createProduct(staff, { label: "Placa para casillas", stock: 5 });
    await addToCartApi(page.context().request, product.id, 1);
  } finally {
    await staff.dispose();
  }
  await page.goto("/checkout");
  await expect(page.getByRole("checkbox", { name: /Requiere factura/ })).toBeVisible();
  // Factura, the two ways to receive the order and the two ways to pay.
  expect(await expectTapTargets(targets(page.getByRole("main")), "/checkout")).toBeGreaterThanOrEqual(5);
  await expectNoSidewaysScroll(page);
});
