import { expect, test } from "./support/fixtures";
import { createCustomer, currentUser, signInWithForm, uniqueEmail } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { linkInMail, waitForMail } from "./support/mail";
import { waitForHydration } from "./support/site";

// Issue 17 §5 (docs/decisions/0062): the customer changes their email from /cuenta; the link goes to
// the new address, the page it opens asks for the password, and the old address is told.

const CHANGE_SUBJECT = /Confirme su correo nuevo/;
const NOTICE_SUBJECT = /El correo de su cuenta de Forja cambió/;

test.describe("email change from /cuenta", () => {
  test("a taken address keeps what was typed; the link to the new address and the password change the email", async ({ page, request, newClient }) => {
    test.slow(); // several sign-ins, each hashing a password
    const customer = await createCustomer(request);
    const other = await createCustomer(request);
    const newEmail = uniqueEmail("correo.nuevo");

    // Another device, signed in before the change: it is signed out by it.
    const otherDevice = await newClient();
    await signInWithForm(await otherDevice.newPage(), customer.email, customer.password);
    expect(await currentUser(otherDevice.request)).toMatchObject({ email: customer.email });

    await signInWithForm(page, customer.email, customer.password, "/cuenta");
    await page.goto("/cuenta");
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);

    // An address of another account: refused in Spanish, what was typed stays.
    const field = page.getByLabel("Correo nuevo");
    await field.fill(other.email);
    await page.getByRole("button", { name: "Enviar enlace de confirmación" }).click();
    await expect(page.getByText("Ese correo ya está registrado en otra cuenta. Escriba uno distinto.")).toBeVisible();
    await expect(field).toHaveValue(other.email);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: type the new address and press Enter.
    await field.focus();
    await field.fill(newEmail);
    await field.press("Enter");
    await expect(page.getByRole("status")).toContainText(`Le enviamos un enlace a ${newEmail}`);
    await expect(page.getByRole("status")).toContainText(`su cuenta sigue usando ${customer.email}`);

    const [mail] = await waitForMail(newEmail, { subject: CHANGE_SUBJECT });
    const link = linkInMail(mail, "/cuenta/confirmar-correo");
    await page.goto(link.toString());
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirme su correo nuevo");
    await expect(page.getByText(`Su cuenta pasará a usar ${newEmail}`)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    // A wrong password: a clear message, the email stays.
    const password = page.getByLabel("Contraseña de su cuenta");
    await password.fill("No-Es-La-Buena-1");
    await password.press("Enter");
    await expect(page.getByText("La contraseña no es correcta.", { exact: false })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    expect(await currentUser(page.request)).toMatchObject({ email: customer.email });

    await password.fill(customer.password);
    await page.getByRole("button", { name: "Confirmar correo nuevo" }).click();
    await expect(page).toHaveURL(/\/cuenta\?correo=cambiado$/);
    await expect(page.getByRole("status")).toHaveText(/Su correo quedó cambiado/);
    await expect(page.getByText(newEmail).first()).toBeVisible();
    expect(await currentUser(page.request)).toMatchObject({ email: newEmail });
    expect(await currentUser(otherDevice.request)).toBeNull();

    const [notice] = await waitForMail(customer.email, { subject: NOTICE_SUBJECT });
    expect(notice.text).toContain(newEmail);

    // The link works once.
    await page.goto(link.toString());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No pudimos usar este enlace");
    await expect(page.getByText(/no es válido, ya se usó o venció/)).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
