import { STAFF, createCustomer, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { CONFIRM_SUBJECT, confirmEmail, sampleQuote, staffCreateQuote } from "./support/quotes";
import { waitForHydration } from "./support/site";
import { openStaffClient, signInStaffContext } from "./support/solicitudes";

// Issue 13 (docs/decisions/0033): a customer whose email is not confirmed yet is told why the quotes
// sent to that address are not listed, and can resend the confirmation from /quotes (the real SMTP
// test server receives it); the staff dashboard shows the system status checkHealth() reports.

test.describe("/quotes before the email is confirmed", () => {
  test("says the email must be confirmed, resends the confirmation, and lists the quote once confirmed", async ({ page, playwright }) => {
    test.slow(); // a registration, a staff sign-in (password hashes) and three emails
    const customer = await createCustomer(page.context().request, { name: `Rosa Sin Confirmar ${uniqueToken()}` });
    const api = await openStaffClient(playwright);
    let number: string;
    try {
      ({ number } = await staffCreateQuote(api, sampleQuote(customer)));
    } finally {
      await api.dispose();
    }
    await waitForMail(customer.email, { subject: CONFIRM_SUBJECT, count: 1 });

    await page.goto("/quotes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mis cotizaciones");
    const notice = page.getByRole("region", { name: "Confirme su correo para ver las cotizaciones que le enviamos" });
    await expect(notice).toContainText(`las cotizaciones enviadas a ${customer.email} aparecen aquí en cuanto usted confirma esa dirección`);
    await expect(page.getByText("Aún no tiene cotizaciones")).toHaveCount(0);
    await expect(page.locator("main")).not.toContainText(number);
    await waitForHydration(page);
    expect(await axeViolations(page), "axe on /quotes before confirming").toEqual([]);

    await notice.getByRole("button", { name: "Reenviar correo de confirmación" }).click();
    await expect(notice.getByRole("status")).toHaveText(`Le enviamos un correo nuevo de confirmación a ${customer.email}. Abra el enlace y sus cotizaciones aparecerán aquí.`);
    await waitForMail(customer.email, { subject: CONFIRM_SUBJECT, count: 2 });

    // The resent link confirms the address; the quote sent to it is now theirs.
    await confirmEmail(page.context().request, customer.email);
    await page.goto("/quotes");
    await expect(page.getByRole("region", { name: /Confirme su correo/ })).toHaveCount(0);
    await expect(page.locator("main tbody tr").filter({ hasText: number })).toHaveCount(1);
  });
});

test.describe("staff dashboard", () => {
  test("«Estado del sistema» shows the health check from the browser, with the database round trip", async ({ page }) => {
    await signInStaffContext(page.context());
    const probes: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/api/health") probes.push(response.status());
    });
    await page.goto("/admin");
    await expect(page.locator("main")).toContainText(STAFF.name);
    const panel = page.getByRole("region", { name: "Estado del sistema" });
    await expect(panel).toContainText("En línea: el sitio y la base de datos responden.");
    await expect(panel.getByTestId("database-ms")).toHaveText(/^\d[\d.,]* ms$/);
    await expect(panel).toContainText("PGlite (integrada)");
    expect(probes).toEqual([200]);

    // Again on request: a second real probe.
    await panel.getByRole("button", { name: "Comprobar de nuevo" }).click();
    await expect.poll(() => probes.length).toBe(2);
    await expect(panel).toContainText("En línea");
    expect(await axeViolations(page), "axe on /admin with the status panel").toEqual([]);
  });
});
