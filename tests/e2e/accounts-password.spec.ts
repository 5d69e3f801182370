import type { APIRequest, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { NEW_PASSWORD, baseUrl, createCustomer, currentUser, signInApi, signInWithForm, uniqueEmail } from "./support/accounts";
import { clientHeaders } from "./support/fixtures";
import { linkInMail, listMail, waitForMail } from "./support/mail";
import { axeViolations } from "./support/axe";
import { waitForHydration } from "./support/site";

// Issue 3 §2: forgot password (/recuperar), reset (/recuperar/nueva) and change password (/cuenta).

const RESET_SUBJECT = /Restablezca su contraseña/;
const SAME_ANSWER =
  "Si hay una cuenta con ese correo, en unos minutos recibirá un enlace para elegir una contraseña nueva. El enlace vence en una hora. Revise también su carpeta de correo no deseado.";

async function requestReset(page: Page, email: string): Promise<string> {
  await page.goto("/recuperar");
  await waitForHydration(page);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviar enlace" }).click();
  const notice = page.getByRole("status");
  await expect(notice).toBeVisible();
  return (await notice.textContent()) ?? "";
}

async function chooseNewPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel("Contraseña nueva", { exact: true }).fill(password);
  await page.getByLabel("Repita la contraseña nueva").fill(password);
  await page.getByRole("button", { name: "Guardar y entrar" }).click();
}

/** What /recuperar/nueva shows for a used, expired or unknown link: the message and the way to a new one, no form. */
async function expectUsedLinkPage(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enlace no válido");
  await expect(page.getByText("El enlace no es válido o ya venció.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Solicitar un enlace nuevo" })).toHaveAttribute("href", "/recuperar");
  await expect(page.getByLabel("Contraseña nueva", { exact: true })).toHaveCount(0);
}

/** Whether email + password signs in through the API, from a fresh client with its own IP. */
async function canSignIn(playwright: { request: APIRequest }, email: string, password: string) {
  const client = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  try {
    const { response } = await signInApi(client, email, password);
    expect([200, 401]).toContain(response.status());
    return response.status() === 200;
  } finally {
    await client.dispose();
  }
}

test.describe("forgot password", () => {
  test("the same answer for an unknown email and a real one; only the real one gets an email", async ({ page, request }) => {
    const customer = await createCustomer(request);
    const unknown = uniqueEmail("sin.cuenta");

    const forUnknown = await requestReset(page, unknown);
    const forCustomer = await requestReset(page, customer.email);
    expect(forUnknown).toBe(SAME_ANSWER);
    expect(forCustomer).toBe(forUnknown);

    const [mail] = await waitForMail(customer.email, { subject: RESET_SUBJECT });
    expect(mail.subject).toBe("Restablezca su contraseña de Forja");
    // The unknown address was asked first; give the outbox worker a moment more, then check.
    await page.waitForTimeout(1_000);
    expect(await listMail(unknown)).toEqual([]);
  });

  test("the emailed link sets a new password, signs in, ends other sessions and works only once", async ({ page, context, request, newClient, playwright }) => {
    test.slow(); // several sign-ins, each hashing a password
    const customer = await createCustomer(request);

    // Another device, signed in before the reset.
    const otherDevice = await newClient();
    const otherPage = await otherDevice.newPage();
    await signInWithForm(otherPage, customer.email, customer.password);
    expect(await currentUser(otherDevice.request)).toMatchObject({ email: customer.email });

    await requestReset(page, customer.email);
    const [mail] = await waitForMail(customer.email, { subject: RESET_SUBJECT });
    const link = linkInMail(mail, "/recuperar/nueva");
    expect(link.origin).toBe(new URL(baseUrl()).origin);
    expect(link.searchParams.get("token")).toBeTruthy();

    // The same link, open in a second tab before it is used (its form posts later, below).
    const earlierTab = await context.newPage();
    await earlierTab.goto(link.toString());
    await expect(earlierTab.getByRole("heading", { level: 1 })).toHaveText("Elija una contraseña nueva");

    await page.goto(link.toString());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Elija una contraseña nueva");
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    await chooseNewPassword(page, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/cuenta\?contrasena=restablecida$/);
    await expect(page.getByRole("status")).toHaveText("Su contraseña nueva quedó guardada y cerramos las sesiones en otros dispositivos.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${customer.name}`);
    expect(await currentUser(context.request)).toMatchObject({ email: customer.email });

    // The other device lost its session.
    expect(await currentUser(otherDevice.request)).toBeNull();
    await otherPage.goto("/cuenta");
    await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Fcuenta$/);

    // The same link a second time says at once that it no longer works, with the way to a new one.
    await page.goto(link.toString());
    await expectUsedLinkPage(page);

    // The tab opened before the link was used still shows the form; posting it is refused.
    const answered = earlierTab.waitForResponse((response) => response.request().method() === "POST");
    await chooseNewPassword(earlierTab, "Otra-Clave-Distinta-88");
    expect((await answered).status()).toBe(400);
    await expect(earlierTab.getByRole("alert")).toHaveText("El enlace no es válido o ya venció. Solicite uno nuevo.");
    await expect(earlierTab).toHaveURL(/\/recuperar\/nueva\?token=/);

    expect(await canSignIn(playwright, customer.email, customer.password), "old password").toBe(false);
    expect(await canSignIn(playwright, customer.email, "Otra-Clave-Distinta-88"), "password of the refused second use").toBe(false);
    expect(await canSignIn(playwright, customer.email, NEW_PASSWORD), "new password").toBe(true);
  });

  // (An expired token reads the same: app/features/accounts/password.server.test.ts ages one in the database.)
  test("a made-up link says so before any password is typed, with a link to ask for a new one", async ({ page }) => {
    const response = await page.goto("/recuperar/nueva?token=inventado-en-la-prueba");
    expect(response?.status()).toBe(200);
    await expectUsedLinkPage(page);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Solicitar un enlace nuevo" }).click();
    await expect(page).toHaveURL("/recuperar");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recuperar contraseña");
  });

  test("/recuperar/nueva without a token explains the link is incomplete", async ({ page }) => {
    await page.goto("/recuperar/nueva");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enlace incompleto");
    await expect(page.getByRole("link", { name: "Solicitar un enlace nuevo" })).toHaveAttribute("href", "/recuperar");
  });
});

test.describe("change password", () => {
  test("needs the current password, then ends the other sessions and keeps this one", async ({ page, context, request, newClient, playwright }) => {
    test.slow(); // several sign-ins, each hashing a password
    const customer = await createCustomer(request);
    await signInWithForm(page, customer.email, customer.password);
    const otherDevice = await newClient();
    await signInWithForm(await otherDevice.newPage(), customer.email, customer.password);

    await page.goto("/cuenta");
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Cambiar contraseña" });
    await section.getByLabel("Contraseña actual").fill("No-Es-La-Mia-321");
    await section.getByLabel("Contraseña nueva", { exact: true }).fill(NEW_PASSWORD);
    await section.getByLabel("Repita la contraseña nueva").fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Cambiar contraseña" }).click();
    await expect(section.getByText("La contraseña actual no es correcta.")).toBeVisible();
    // A wrong attempt changes nothing.
    expect(await currentUser(otherDevice.request)).toMatchObject({ email: customer.email });

    await section.getByLabel("Contraseña actual").fill(customer.password);
    await section.getByLabel("Contraseña nueva", { exact: true }).fill(NEW_PASSWORD);
    await section.getByLabel("Repita la contraseña nueva").fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Cambiar contraseña" }).click();
    await expect(page.getByRole("status")).toHaveText("Contraseña cambiada. Cerramos las sesiones abiertas en otros dispositivos.");

    // This browser stays signed in; the other one does not.
    expect(await currentUser(context.request)).toMatchObject({ email: customer.email });
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${customer.name}`);
    expect(await currentUser(otherDevice.request)).toBeNull();

    expect(await canSignIn(playwright, customer.email, customer.password), "old password").toBe(false);
    expect(await canSignIn(playwright, customer.email, NEW_PASSWORD), "new password").toBe(true);
  });
});
