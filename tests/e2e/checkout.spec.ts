import type { Page } from "@playwright/test";
import { createCustomer, signInStaffWithForm, submitLogin, uniqueEmail, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { listMail, waitForMail } from "./support/mail";
import {
  ORDER_NUMBER,
  QUERETARO_ADDRESS,
  SPEI,
  addToCartApi,
  addToCartOnPage,
  checkoutForm,
  checkoutPage,
  createProduct,
  fillCheckout,
  findOrders,
  headerCartLink,
  lineFigures,
  mexicoYear,
  money,
  openStaffApi,
  orderFigures,
  shownUnitPrice,
  placeOrderApi,
  rfcWithWrongDigit,
  signInStaffBrowser,
  speiReference,
  stockOf,
  validRfc,
  waitForAdminMarker,
} from "./support/shop";
import { waitForHydration } from "./support/site";

// Issue 6 §2, §3 and §5 (browser): the guest cart and its merge at sign-in, /checkout with CFDI data,
// envío and SPEI, the confirmation and its email, the account's orders, staff marking an order paid;
// the same without JavaScript; Spanish errors that keep what was typed; stock taken by someone else
// between cart and checkout; a double submit. Every product bought here is made by the test.

const STAFF_MAIL = () => process.env.E2E_MAIL_STAFF_TO!;

function confirmationUrl(number?: string): RegExp {
  return new RegExp(`/checkout/confirmacion/(${number ?? ORDER_NUMBER.source})$`);
}

function orderNumberFrom(page: Page): string {
  const number = ORDER_NUMBER.exec(new URL(page.url()).pathname)?.[0];
  expect(number, page.url()).toBeTruthy();
  return number!;
}

/** The confirmation's totals box. */
async function expectTotals(page: Page, figures: { subtotal: number; iva: number; total: number }): Promise<void> {
  const totals = page.locator("dl").filter({ has: page.getByTestId("order-total") }).first();
  await expect(totals.locator("div").filter({ hasText: "Subtotal" }).locator("dd")).toHaveText(money(figures.subtotal));
  await expect(totals.locator("div").filter({ hasText: /^IVA/ }).locator("dd")).toHaveText(money(figures.iva));
  await expect(totals.getByTestId("order-total")).toHaveText(money(figures.total));
}

test.describe("checkout", () => {
  test("a guest fills a cart, signs in (the carts merge), pays by SPEI with factura and envío; email, account and staff marking it paid", async ({ page, request, playwright, newClient }) => {
    test.slow(); // two sign-ins (password hashing), one order, two emails and a staff session
    const token = uniqueToken();
    const staff = await openStaffApi(playwright);
    try {
      const brida = await createProduct(staff, { label: "Brida de checkout", netCentavos: 123_456, ivaBp: 1600, stock: 30 });
      const bujes = await createProduct(staff, { label: "Juego de bujes frontera", unit: "juego", netCentavos: 50_000, ivaBp: 800, stock: 30, minOrder: 2 });
      const figures = orderFigures([
        { quantity: 3, product: brida },
        { quantity: 2, product: bujes },
      ]);
      expect(figures).toEqual({ subtotal: 470_368, iva: 67_259, total: 537_627 });

      // The account already has a cart (from another device): two sets of bujes.
      const customer = await createCustomer(request, { name: `Teresa Compradora ${token}`, company: "Maquinados del Bajío" });
      await addToCartApi(request, bujes.id, 2);

      // As a guest in this browser: the header counts what is added once the app runs.
      await page.goto(`/catalogo/${brida.slug}`);
      await waitForHydration(page);
      await expect(headerCartLink(page)).toHaveAttribute("aria-label", "Carrito, vacío");
      await addToCartOnPage(page, 3);
      await expect(page.getByText(`Agregamos 3 piezas de «${brida.name}» a su carrito.`)).toBeVisible();
      await expect(headerCartLink(page)).toHaveAttribute("data-count", "3");
      await expect(headerCartLink(page)).toHaveAttribute("aria-label", "Carrito, 3 piezas");
      await expect(page.getByTestId("cart-line")).toHaveCount(1);

      await page.getByRole("link", { name: "Continuar al pago" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(page.locator("h1")).toHaveText("Finalizar compra");
      await page.locator("form#checkout").getByRole("link", { name: "Inicie sesión" }).click();
      await expect(page).toHaveURL("/login?redirectTo=%2Fcheckout");
      // The page transition may keep the checkout form (with its own "Correo electrónico") on screen a moment.
      await expect(page.locator("form#checkout")).toHaveCount(0);
      await expect(page.locator("h1")).toHaveText("Iniciar sesión");
      await waitForHydration(page);
      await submitLogin(page, customer.email, customer.password);

      // Back at /checkout, signed in: the guest's line joined the account's cart.
      await expect(page).toHaveURL("/checkout");
      const summary = page.getByRole("complementary", { name: "Su pedido" });
      await expect(summary.getByRole("listitem")).toHaveCount(2);
      await expect(summary.getByRole("listitem").filter({ hasText: brida.name })).toContainText("3 piezas");
      await expect(summary.getByRole("listitem").filter({ hasText: bujes.name })).toContainText("2 juegos");
      await expect(summary.getByTestId("order-total")).toHaveText(money(figures.total));
      await expect(headerCartLink(page)).toHaveAttribute("data-count", "5");
      const f = checkoutPage(page);
      await expect(f.name).toHaveValue(customer.name);
      await expect(f.email).toHaveValue(customer.email);
      await expect(f.company).toHaveValue("Maquinados del Bajío");
      await expect(f.submit).toHaveText(`Confirmar pedido por ${money(figures.total)}`);

      // Errors first, checked as they are typed, in Spanish; nothing is posted.
      const posts: string[] = [];
      page.on("request", (sent) => {
        if (sent.method() === "POST" && new URL(sent.url()).pathname.startsWith("/checkout")) posts.push(sent.url());
      });
      const rfc = validRfc("MAQ850101AB");
      const badRfc = rfcWithWrongDigit("MAQ850101AB");
      await fillCheckout(page, {
        phone: "442 555 0101",
        delivery: "envio",
        address: { ...QUERETARO_ADDRESS, codigoPostal: "7612" },
        invoice: { rfc: badRfc, razonSocial: "Maquinados del Bajío", regimenFiscal: "601", usoCfdi: "G01", codigoPostalFiscal: "7612" },
        paymentMethod: "spei",
      });
      await f.submit.click();
      await expect(f.rfc).toHaveAttribute("aria-invalid", "true");
      await expect(f.rfc).toHaveAccessibleDescription(/El dígito verificador del RFC no coincide\. Cópielo tal como aparece en su Constancia de Situación Fiscal\./);
      await expect(f.codigoPostal).toHaveAccessibleDescription(/El código postal tiene 5 dígitos\./);
      await expect(f.codigoPostalFiscal).toHaveAccessibleDescription(/El código postal tiene 5 dígitos\./);
      await expect(f.rfc).toHaveValue(badRfc);
      await expect(f.calle).toHaveValue(QUERETARO_ADDRESS.calle);
      await expect(f.regimen).toHaveValue("601");
      await expect(page).toHaveURL("/checkout");
      expect(posts).toEqual([]);

      await f.rfc.fill(rfc);
      await f.codigoPostal.fill(QUERETARO_ADDRESS.codigoPostal);
      await f.codigoPostalFiscal.fill("76120");
      await f.codigoPostalFiscal.blur();
      await expect(f.rfc).not.toHaveAttribute("aria-invalid", "true");
      await expect(f.codigoPostalFiscal).not.toHaveAttribute("aria-invalid", "true");
      await f.submit.click();

      // The confirmation: number, totals, SPEI data and the order's own reference.
      await expect(page).toHaveURL(confirmationUrl(), { timeout: 15_000 });
      const number = orderNumberFrom(page);
      expect(number.startsWith(`PED-${mexicoYear()}-`)).toBe(true);
      const reference = speiReference(number);
      await expect(page.locator("h1")).toHaveText(`Gracias, recibimos su pedido ${number}`);
      await expect(page.locator("main")).toContainText(`Le enviamos la confirmación a ${customer.email}.`);
      await expect(page.locator("main")).toContainText("Pendiente de pago");
      // The time ends the sentence ("… 2:30 p.m."): one period, never "p.m..".
      await expect(page.locator("main")).toContainText(/Hecho el .+[ap]\.\s?m\. Estado:/);
      expect(await page.locator("main").textContent()).not.toMatch(/[ap]\.\s?m\.\./);
      await expectTotals(page, figures);
      const spei = page.getByTestId("spei-instructions");
      await expect(spei).toContainText(`Transfiera ${money(figures.total)}`);
      await expect(spei.locator("dd").nth(0)).toHaveText(SPEI.bank);
      await expect(spei.locator("dd").nth(1)).toHaveText(SPEI.clabeDisplay);
      await expect(spei.locator("dd").nth(2)).toHaveText(SPEI.beneficiary);
      await expect(spei.getByTestId("payment-reference")).toHaveText(reference);
      // Envío a domicilio: the total leaves shipping out; its cost and carrier come by email, paid apart.
      const shippingNote = spei.getByTestId("shipping-payment-note");
      await expect(shippingNote).toContainText("El envío se paga aparte");
      await expect(shippingNote).toContainText(`El total de ${money(figures.total)} no incluye el envío. Le enviaremos por correo el costo del envío y la paquetería.`);
      await expect(shippingNote).toContainText("Transfiera ahora solo el total del pedido; el envío se paga aparte, una vez que le confirmemos su costo.");
      await expect(page.getByTestId("shipping-not-included")).toHaveText("El envío no está incluido en el total: le enviaremos por correo su costo y la paquetería.");
      const lines = page.getByRole("table", { name: `Productos del pedido ${number}` });
      await expect(lines.getByRole("row").filter({ hasText: brida.name })).toContainText("3 piezas");
      await expect(lines.getByRole("row").filter({ hasText: bujes.name })).toContainText("2 juegos");
      await expect(page.locator("main")).toContainText(
        `Envío a ${QUERETARO_ADDRESS.calle} ${QUERETARO_ADDRESS.numero}, col. ${QUERETARO_ADDRESS.colonia}, CP 76120, Querétaro, Querétaro (${QUERETARO_ADDRESS.referencias})`,
      );
      await expect(page.locator("main")).toContainText(`Maquinados del Bajío · RFC ${rfc}`);
      await expect(page.locator("main")).toContainText("Régimen 601 · General de Ley Personas Morales");
      await expect(page.locator("main")).toContainText("Uso G01 · Adquisición de mercancías · CP 76120");
      // The cart is empty now.
      await expect(headerCartLink(page)).toHaveAttribute("aria-label", "Carrito, vacío");
      // Stock was taken.
      expect(await stockOf(staff, brida.id)).toBe(27);
      expect(await stockOf(staff, bujes.id)).toBe(28);

      // The email, with the order and how to pay it.
      const [placed] = await waitForMail(customer.email, { subject: new RegExp(`Pedido ${number} recibido`) });
      expect(placed.subject).toBe(`Pedido ${number} recibido`);
      expect(placed.text).toContain(`Recibimos su pedido ${number}`);
      expect(placed.text).toContain(`3 piezas × ${brida.name} (${brida.sku}) a ${money(shownUnitPrice(brida.netCentavos, brida.ivaBp))} c/u: ${money(3 * shownUnitPrice(brida.netCentavos, brida.ivaBp))}`);
      expect(lineFigures(3, brida.netCentavos, brida.ivaBp).total).toBe(3 * shownUnitPrice(brida.netCentavos, brida.ivaBp));
      expect(placed.text).toContain(`Subtotal: ${money(figures.subtotal)} · IVA: ${money(figures.iva)} · Total: ${money(figures.total)}`);
      expect(placed.text).toContain(`Banco: ${SPEI.bank} · CLABE: ${SPEI.clabeDisplay} · Beneficiario: ${SPEI.beneficiary}`);
      expect(placed.text).toContain(`Escriba la referencia ${reference} en el concepto de la transferencia`);
      expect(placed.text).toContain(`El total de ${money(figures.total)} no incluye el envío. Le enviaremos por correo el costo del envío y la paquetería.`);
      expect(placed.text).toContain("Transfiera ahora solo el total del pedido; el envío se paga aparte, una vez que le confirmemos su costo.");
      expect(placed.text).toContain(`RFC ${rfc}`);
      expect(placed.text).toContain("/cuenta/pedidos");
      const [staffMail] = await waitForMail(STAFF_MAIL(), { subject: new RegExp(`^\\[${number}\\] Pedido nuevo`) });
      expect(staffMail.text).toContain(`Pago por SPEI con referencia ${reference}.`);

      // The account lists it.
      await page.getByRole("link", { name: "Ver mis pedidos" }).click();
      await expect(page).toHaveURL("/cuenta/pedidos");
      const row = page.getByRole("row").filter({ hasText: number });
      await expect(row).toContainText("Pendiente de pago");
      await expect(row).toContainText("Envío a domicilio · Transferencia SPEI");
      await expect(row.locator("td").nth(4)).toHaveText("5");
      await expect(row).toContainText(money(figures.total));

      // Staff find it and mark it paid, through the panel.
      const staffPage = await (await newClient()).newPage();
      await signInStaffWithForm(staffPage);
      await expect(staffPage).toHaveURL(/\/admin$/);
      await waitForAdminMarker(staffPage);
      await staffPage.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Pedidos" }).click();
      await expect(staffPage).toHaveURL("/admin/pedidos");
      await expect(staffPage.locator("h1")).toHaveText("Pedidos");
      await staffPage.getByRole("searchbox", { name: "Buscar" }).fill(reference);
      await staffPage.getByRole("button", { name: "Aplicar filtros" }).click();
      await expect(staffPage.getByRole("row")).toHaveCount(2);
      const staffRow = staffPage.getByRole("row").filter({ hasText: number });
      await expect(staffRow).toContainText(rfc);
      await expect(staffRow).toContainText("Pendiente de pago");
      await staffRow.getByRole("link", { name: number }).click();
      await expect(staffPage.locator("h1")).toHaveText(`Pedido ${number}`);
      await expect(staffPage.locator("main")).toContainText(`referencia ${reference}`);
      await staffPage.getByRole("button", { name: "Marcar como «Pagado»" }).click();
      await expect(staffPage.getByText(`El pedido ${number} pasó a «Pagado». Avisamos al cliente por correo.`)).toBeVisible();
      await expect(staffPage.getByRole("region", { name: "Historial" })).toContainText("Pendiente de pago → Pagado");

      const [paid] = await waitForMail(customer.email, { subject: new RegExp(`Pedido ${number}: Pagado`) });
      expect(paid.text).toContain("Confirmamos su pago. Empezaremos a preparar su pedido.");
      expect(paid.text).toContain(`Total del pedido: ${money(figures.total)} con IVA.`);
      await page.reload();
      await expect(page.getByRole("row").filter({ hasText: number })).toContainText("Pagado");
    } finally {
      await staff.dispose();
    }
  });

  test("without JavaScript: a guest checks out; Spanish errors keep every value; the generic RFC only with 616 and S01", async ({ newClient, playwright }) => {
    test.slow();
    const staff = await openStaffApi(playwright);
    try {
      const product = await createProduct(staff, { label: "Placa sin JavaScript", netCentavos: 80_000, stock: 10 });
      const figures = orderFigures([{ quantity: 2, product }]);
      const context = await newClient({ javaScriptEnabled: false });
      const page = await context.newPage();
      const email = uniqueEmail("sinjs");
      const name = `Rubén Sin Scripts ${uniqueToken()}`;

      await page.goto(`/catalogo/${product.slug}`);
      await addToCartOnPage(page, 2);
      await expect(page.getByText(`Agregamos 2 piezas de «${product.name}» a su carrito.`)).toBeVisible();
      await expect(page.getByTestId("cart-line")).toContainText(money(figures.total));
      await page.getByRole("link", { name: "Continuar al pago" }).click();
      await expect(page).toHaveURL("/checkout");

      const f = checkoutPage(page);
      const post = () => page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/checkout");
      const badRfc = rfcWithWrongDigit("GODE561231GR");
      const address = { ...QUERETARO_ADDRESS, codigoPostal: "7612" };

      // Round 1: a wrong check digit, postal codes of 4 digits, paying at the plant with envío.
      let answered = post();
      await fillCheckout(page, {
        name,
        email,
        phone: "+52 442 987 6543",
        delivery: "envio",
        address,
        invoice: { rfc: badRfc, razonSocial: "Rubén Sin Scripts", regimenFiscal: "612", usoCfdi: "G03", codigoPostalFiscal: "7612" },
        paymentMethod: "recoger",
      });
      await f.submit.click();
      expect((await answered).status()).toBe(400);
      await expect(f.rfc).toHaveAccessibleDescription(/El dígito verificador del RFC no coincide/);
      await expect(f.codigoPostal).toHaveAccessibleDescription(/El código postal tiene 5 dígitos\./);
      await expect(f.codigoPostalFiscal).toHaveAccessibleDescription(/El código postal tiene 5 dígitos\./);
      await expect(page.getByText("El pago al recoger solo aplica si recoge su pedido en planta. Elija transferencia SPEI para envíos.")).toBeVisible();
      for (const [field, value] of [
        [f.name, name],
        [f.email, email],
        [f.phone, "+52 442 987 6543"],
        [f.calle, address.calle],
        [f.numero, address.numero],
        [f.colonia, address.colonia],
        [f.codigoPostal, "7612"],
        [f.municipio, address.municipio],
        [f.estado, address.estado],
        [f.rfc, badRfc],
        [f.razonSocial, "Rubén Sin Scripts"],
        [f.regimen, "612"],
        [f.uso, "G03"],
        [f.codigoPostalFiscal, "7612"],
      ] as const) {
        await expect(field).toHaveValue(value);
      }
      await expect(f.delivery("envio")).toBeChecked();
      await expect(f.payment("recoger")).toBeChecked();
      await expect(f.factura).toBeChecked();

      // Round 2: the generic RFC (público en general) with a business régimen and uso.
      answered = post();
      await f.rfc.fill("XAXX010101000");
      await f.regimen.selectOption("601");
      await f.uso.selectOption("G01");
      await f.codigoPostal.fill("76120");
      await f.codigoPostalFiscal.fill("76120");
      await f.payment("spei").check();
      await f.submit.click();
      expect((await answered).status()).toBe(400);
      await expect(f.regimen).toHaveAccessibleDescription(/Con el RFC genérico el régimen fiscal es 616 · Sin obligaciones fiscales\./);
      await expect(f.uso).toHaveAccessibleDescription(/Con el RFC genérico el uso del CFDI es S01 · Sin efectos fiscales\./);
      await expect(f.rfc).not.toHaveAttribute("aria-invalid", "true");
      await expect(f.rfc).toHaveValue("XAXX010101000");

      // Round 3: as the SAT allows it.
      await f.regimen.selectOption("616");
      await f.uso.selectOption("S01");
      await f.submit.click();
      await expect(page).toHaveURL(confirmationUrl());
      const number = orderNumberFrom(page);
      await expect(page.locator("h1")).toHaveText(`Gracias, recibimos su pedido ${number}`);
      await expectTotals(page, figures);
      await expect(page.getByTestId("payment-reference")).toHaveText(speiReference(number));
      await expect(page.locator("main")).toContainText("RFC XAXX010101000");
      await expect(page.locator("main")).toContainText("Régimen 616 · Sin obligaciones fiscales");
      // A guest has no account page to go to.
      await expect(page.getByRole("link", { name: "Ver mis pedidos" })).toHaveCount(0);
      // This browser may open it again; the email carries everything for other devices.
      expect((await page.reload())?.status()).toBe(200);
      const [mail] = await waitForMail(email, { subject: new RegExp(`Pedido ${number} recibido`) });
      expect(mail.text).toContain(`Escriba la referencia ${speiReference(number)}`);
      expect(mail.text).not.toContain("/cuenta/pedidos");
      expect(await stockOf(staff, product.id)).toBe(8);
      expect(await findOrders(staff, email)).toEqual([expect.objectContaining({ number })]);
    } finally {
      await staff.dispose();
    }
  });

  test("someone else takes the last pieces between cart and checkout: a Spanish message naming the item, nothing taken or charged", async ({ page, newClient, playwright }) => {
    test.slow();
    const staff = await openStaffApi(playwright);
    try {
      const product = await createProduct(staff, { label: "Brida escasa", netCentavos: 150_000, stock: 5 });
      const email = uniqueEmail("sinexistencia");

      // This buyer puts 4 in the cart and opens the checkout.
      await page.goto(`/catalogo/${product.slug}`);
      await waitForHydration(page);
      await expect(page.getByTestId("existencia")).toHaveText("Últimas 5 piezas");
      await addToCartOnPage(page, 4);
      await page.getByRole("link", { name: "Continuar al pago" }).click();
      await expect(page).toHaveURL("/checkout");
      await fillCheckout(page, { name: "Lucía Tardía", email, phone: "4421112233", delivery: "recoger", paymentMethod: "spei" });

      // Meanwhile, on another browser, someone buys 3 of the 5.
      const other = await newClient();
      await addToCartApi(other.request, product.id, 3);
      const otherEmail = uniqueEmail("madrugador");
      const otherNumber = await placeOrderApi(other.request, { name: "Mario Madrugador", email: otherEmail, phone: "4424445566", delivery: "recoger", paymentMethod: "recoger" });
      expect(await stockOf(staff, product.id)).toBe(2);

      // Now this checkout is refused, by name, and keeps what was typed.
      const f = checkoutPage(page);
      await f.submit.click();
      await expect(f.formErrors).toHaveText(`Solo quedan 2 piezas de «${product.name}». Ajuste la cantidad en su carrito para continuar; no se apartó nada.`);
      await expect(f.formErrors).toHaveAttribute("role", "alert");
      await expect(page).toHaveURL("/checkout");
      await expect(f.name).toHaveValue("Lucía Tardía");
      await expect(f.email).toHaveValue(email);

      // Nothing was taken, no order and no email for this buyer.
      expect(await stockOf(staff, product.id)).toBe(2);
      expect(await findOrders(staff, email)).toEqual([]);
      await waitForMail(otherEmail, { subject: new RegExp(`Pedido ${otherNumber} recibido`) });
      expect(await listMail(email)).toEqual([]);

      // The cart says what changed; with what is left, the order goes through.
      await page.getByRole("link", { name: "Cambiar cantidades" }).click();
      await expect(page).toHaveURL("/carrito");
      await expect(page.getByText(`Solo quedan 2 piezas de «${product.name}»; ajustamos la cantidad de su carrito.`)).toBeVisible();
      await expect(page.getByTestId("cart-line").getByLabel("Cantidad")).toHaveValue("2");
      await page.getByRole("link", { name: "Continuar al pago" }).click();
      await fillCheckout(page, { name: "Lucía Tardía", email, phone: "4421112233" });
      await checkoutPage(page).submit.click();
      await expect(page).toHaveURL(confirmationUrl());
      await expectTotals(page, orderFigures([{ quantity: 2, product }]));
      expect(await stockOf(staff, product.id)).toBe(0);
      await page.goto(`/catalogo/${product.slug}`);
      await expect(page.getByTestId("existencia")).toHaveText("Sobre pedido");
    } finally {
      await staff.dispose();
    }
  });

  test("a double submit, and the same checkout posted again, make one order", async ({ newClient, playwright }) => {
    const staff = await openStaffApi(playwright);
    try {
      const product = await createProduct(staff, { label: "Rodillo doble envío", netCentavos: 20_000, stock: 10 });
      const email = uniqueEmail("doble");
      const context = await newClient({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`/catalogo/${product.slug}`);
      await addToCartOnPage(page, 1);
      await page.getByRole("link", { name: "Continuar al pago" }).click();
      const fields = { name: "Dora Doble", email, phone: "4427778899", delivery: "recoger", paymentMethod: "recoger" } as const;
      await fillCheckout(page, fields);
      const f = checkoutPage(page);
      const hidden = {
        formToken: (await f.form.locator('input[name="formToken"]').getAttribute("value"))!,
        expectedTotal: (await f.form.locator('input[name="expectedTotal"]').getAttribute("value"))!,
      };

      const posts: string[] = [];
      page.on("request", (sent) => {
        if (sent.method() === "POST") posts.push(sent.url());
      });
      await f.submit.dblclick();
      await expect(page).toHaveURL(confirmationUrl());
      const number = orderNumberFrom(page);
      expect(posts.length).toBeGreaterThanOrEqual(1);
      // Picked up at the plant: nothing about shipping.
      await expect(page.locator("h1")).toHaveText(`Gracias, recibimos su pedido ${number}`);
      await expect(page.getByTestId("shipping-not-included")).toHaveCount(0);
      await expect(page.getByTestId("shipping-payment-note")).toHaveCount(0);
      await expect(page.locator("main")).not.toContainText("no incluye el envío");

      // The same page posted twice more at once (a resubmitted form): the same order, nothing new.
      const again = await Promise.all(
        [1, 2].map(() => context.request.post("/checkout", { headers: { origin: new URL(page.url()).origin }, form: checkoutForm(fields, hidden), maxRedirects: 0 })),
      );
      for (const response of again) {
        expect(response.status()).toBe(302);
        expect(response.headers()["location"]).toBe(`/checkout/confirmacion/${number}`);
      }
      expect(await findOrders(staff, email)).toEqual([expect.objectContaining({ number })]);
      expect(await stockOf(staff, product.id)).toBe(9);
      const [placed] = await waitForMail(email, { subject: new RegExp(`Pedido ${number} recibido`) });
      expect(placed.text).not.toContain("no incluye el envío");
      expect(placed.text).not.toContain("se paga aparte");
      expect(await listMail(email)).toHaveLength(1);
    } finally {
      await staff.dispose();
    }
  });
});

test.describe("checkout: accesibilidad", () => {
  test("/carrito (empty and with items), /checkout, the confirmation, /cuenta/pedidos, /admin/pedidos and an order have no WCAG 2.1 A/AA violations", async ({ page, context, newClient, playwright }) => {
    test.slow(); // nine axe runs
    const staff = await openStaffApi(playwright);
    try {
      const product = await createProduct(staff, { label: "Soporte accesible", netCentavos: 34_900, stock: 20 });
      const customer = await createCustomer(context.request, { name: `Alicia Accesible ${uniqueToken()}` });

      await page.goto("/carrito");
      await waitForHydration(page);
      await expect(page.locator("h1")).toHaveText("Su carrito");
      await expect(page.getByText("Todavía no tiene piezas en su carrito.")).toBeVisible();
      expect(await axeViolations(page), "/carrito empty").toEqual([]);

      await page.goto(`/catalogo/${product.slug}`);
      await addToCartOnPage(page, 2);
      await waitForHydration(page);
      await expect(page.getByTestId("cart-line")).toHaveCount(1);
      expect(await axeViolations(page), "/carrito with items").toEqual([]);

      await page.getByRole("link", { name: "Continuar al pago" }).click();
      await expect(page).toHaveURL("/checkout");
      // Client navigations swap the page inside a view transition: wait for the new one.
      await expect(page.locator("h1")).toHaveText("Finalizar compra");
      await waitForHydration(page);
      expect(await axeViolations(page), "/checkout").toEqual([]);
      // With the invoice section open and an error showing.
      await fillCheckout(page, { invoice: { rfc: "XAXX010101000", razonSocial: "Público en general", regimenFiscal: "616", usoCfdi: "S01", codigoPostalFiscal: "76000" } });
      await fillCheckout(page, { phone: "442" });
      // Forms validate on submit (docs/decisions/0010): the browser refuses and marks the field.
      await checkoutPage(page).submit.click();
      await expect(checkoutPage(page).phone).toHaveAttribute("aria-invalid", "true");
      await expect(page).toHaveURL("/checkout");
      expect(await axeViolations(page), "/checkout with factura and an error").toEqual([]);

      await fillCheckout(page, { phone: "442 123 4567" });
      await expect(checkoutPage(page).phone).not.toHaveAttribute("aria-invalid", "true");
      await checkoutPage(page).submit.click();
      await expect(page).toHaveURL(confirmationUrl());
      const number = orderNumberFrom(page);
      await expect(page.locator("h1")).toHaveText(`Gracias, recibimos su pedido ${number}`);
      await waitForHydration(page);
      expect(await axeViolations(page), "the confirmation").toEqual([]);

      await page.getByRole("link", { name: "Ver mis pedidos" }).click();
      await expect(page).toHaveURL("/cuenta/pedidos");
      await expect(page.getByRole("link", { name: number })).toBeVisible();
      await waitForHydration(page);
      expect(await axeViolations(page), "/cuenta/pedidos").toEqual([]);
      expect(customer.email).toBeTruthy();

      const staffContext = await newClient();
      await signInStaffBrowser(staffContext);
      const staffPage = await staffContext.newPage();
      await staffPage.goto("/admin/pedidos");
      await expect(staffPage.locator("h1")).toHaveText("Pedidos");
      await waitForHydration(staffPage);
      expect(await axeViolations(staffPage), "/admin/pedidos").toEqual([]);
      const [order] = await findOrders(staff, number);
      await staffPage.goto(`/admin/pedidos/${order!.id}`);
      await expect(staffPage.locator("h1")).toHaveText(`Pedido ${number}`);
      await waitForHydration(staffPage);
      expect(await axeViolations(staffPage), "/admin/pedidos/{id}").toEqual([]);
    } finally {
      await staff.dispose();
    }
  });
});
