import { expect, test } from "./support/fixtures";
import { PASSWORD, baseUrl, createCustomer, headerAccountLink, submitRegistration, uniqueEmail, uniqueToken } from "./support/accounts";
import { linkInMail, listMail, waitForMail } from "./support/mail";
import { waitForHydration } from "./support/site";

// Issue 3 §2: registration at /registro, the confirmation email (read from the test SMTP server)
// and its link, and resending it from /cuenta.

const CONFIRM_SUBJECT = /Confirme su correo/;

test.describe("registration", () => {
  test("errors are Spanish, values are kept but passwords are not, and consent is required (no JavaScript)", async ({ newClient }) => {
    const context = await newClient({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail("registro.nojs");
    const name = `Tomás Validación ${uniqueToken()}`;
    await page.goto("/registro");

    const post = () => page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/registro");
    const form = page.locator("main form").filter({ has: page.getByLabel("Nombre completo") });

    // Round 1: almost everything wrong, and one of the most common passwords.
    let answered = post();
    await submitRegistration(page, {
      name: "T",
      email: "correo-sin-arroba",
      company: "Maquinados del Bajío",
      phone: "442 12",
      password: "password123",
      privacy: false,
    });
    expect((await answered).status()).toBe(400);
    await expect(form.getByText("Escriba su nombre completo.")).toBeVisible();
    await expect(form.getByText("Escriba un correo válido, por ejemplo nombre@empresa.com.")).toBeVisible();
    await expect(form.getByText("Escriba un teléfono de 10 dígitos; puede empezar con +52.")).toBeVisible();
    await expect(form.getByText("Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra.")).toBeVisible();
    await expect(form.getByText("Para crear su cuenta debe aceptar el aviso de privacidad.")).toBeVisible();
    await expect(form.getByLabel("Nombre completo")).toHaveValue("T");
    await expect(form.getByLabel("Correo electrónico")).toHaveValue("correo-sin-arroba");
    await expect(form.getByLabel("Empresa")).toHaveValue("Maquinados del Bajío");
    await expect(form.getByLabel("Teléfono o WhatsApp")).toHaveValue("442 12");
    await expect(form.getByLabel("Contraseña", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("Repita la contraseña")).toHaveValue("");
    await expect(form.getByLabel("Nombre completo")).toHaveAttribute("aria-invalid", "true");

    // Round 2: everything right except the privacy consent. Nothing may be created.
    answered = post();
    await submitRegistration(page, { name, email, company: "Maquinados del Bajío", phone: "442 123 4567", password: PASSWORD, privacy: false });
    expect((await answered).status()).toBe(400);
    await expect(form.getByText("Para crear su cuenta debe aceptar el aviso de privacidad.")).toBeVisible();
    await expect(form.getByText("Escriba su nombre completo.")).toHaveCount(0);
    await expect(form.getByLabel("Contraseña", { exact: true })).toHaveValue("");

    // Round 3: with consent the same email registers (so round 2 created nothing) and signs in.
    await submitRegistration(page, { name, email, company: "Maquinados del Bajío", phone: "442 123 4567", password: PASSWORD });
    await expect(page).toHaveURL(/\/cuenta\?bienvenida=1$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${name}`);
    await expect(page.getByLabel("Empresa")).toHaveValue("Maquinados del Bajío");
  });

  test("an email that already has an account is refused with a Spanish message", async ({ request, newClient }) => {
    const existing = await createCustomer(request);
    const context = await newClient({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/registro");
    const answered = page.waitForResponse((response) => response.request().method() === "POST");
    await submitRegistration(page, { name: "Otra Persona Distinta", email: existing.email.toUpperCase(), password: "Otra-Clave-Larga-55" });
    expect((await answered).status()).toBe(400);
    await expect(page.getByText("Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.")).toBeVisible();
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(existing.email.toUpperCase());
    await expect(page).toHaveURL(/\/registro$/);
  });

  test("registering signs in, sends a confirmation email whose link confirms; /cuenta can resend it", async ({ page }) => {
    const token = uniqueToken();
    const name = `Mariana Registro ${token}`;
    const email = uniqueEmail("registro");
    await page.goto("/registro");
    await waitForHydration(page);
    await submitRegistration(page, { name, email, company: "Troqueles de Occidente", password: PASSWORD });

    await expect(page).toHaveURL(/\/cuenta\?bienvenida=1$/);
    await expect(page.getByRole("status")).toContainText("Le damos la bienvenida. Le enviamos un correo para confirmar su dirección.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hola, ${name}`);
    // The header learns who is signed in from /api/users/me once the app runs in the browser.
    await waitForHydration(page);
    await expect(headerAccountLink(page)).toHaveAttribute("data-state", "signed-in");
    // The label stays "Mi cuenta" (no width change after hydration); the name goes in the tooltip.
    await expect(headerAccountLink(page)).toHaveText("Mi cuenta");
    await expect(headerAccountLink(page)).toHaveAttribute("title", `Sesión iniciada como ${name}`);
    const emailSection = page.getByRole("region", { name: "Correo electrónico" });
    await expect(emailSection).toContainText("sin confirmar");

    const [first] = await waitForMail(email, { subject: CONFIRM_SUBJECT });
    expect(first.subject).toBe("Confirme su correo en Forja");
    expect(first.text).toContain(`Hola, ${name}`);
    const firstLink = linkInMail(first, "/cuenta/confirmar");
    expect(firstLink.origin).toBe(new URL(baseUrl()).origin);
    expect(firstLink.searchParams.get("token")).toBeTruthy();

    // Resend from the account page: a second message arrives.
    await emailSection.getByRole("button", { name: "Reenviar correo de confirmación" }).click();
    await expect(page.getByRole("status")).toHaveText(`Le enviamos un correo nuevo de confirmación a ${email}.`);
    const mails = await waitForMail(email, { subject: CONFIRM_SUBJECT, count: 2 });
    expect(mails).toHaveLength(2);
    const secondLink = linkInMail(mails[1], "/cuenta/confirmar");

    const confirmed = await page.goto(secondLink.toString());
    expect(confirmed?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("¡Correo confirmado!");

    await page.goto("/cuenta");
    await expect(emailSection).toContainText(`${email} · confirmado`);
    await expect(emailSection).not.toContainText("sin confirmar");
    await expect(emailSection.getByRole("button", { name: "Reenviar correo de confirmación" })).toHaveCount(0);
    // Nothing else was sent to this address.
    expect(await listMail(email)).toHaveLength(2);
  });

  test("a confirmation link with a forged token is refused in Spanish", async ({ page }) => {
    const response = await page.goto("/cuenta/confirmar?token=eyJhbGciOiJIUzI1NiJ9.e30.falso");
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No pudimos confirmar su correo");
    await expect(page.getByText("El enlace no es válido o ya venció. Solicite uno nuevo.")).toBeVisible();
  });
});
