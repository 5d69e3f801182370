import { expect, test } from "./support/fixtures";
import { baseUrl, signInStaffWithForm, uniqueEmail } from "./support/accounts";
import { waitForMail } from "./support/mail";
import { clientHeaders } from "./support/fixtures";
import { axeViolations } from "./support/axe";
import { waitForHydration } from "./support/site";
import { STAFF_AREA_REFUSED, createStaffMember, signInAdmin } from "./support/staff";

// Issue 17 §3, docs/decisions/0058: /admin/sistema for the admin role — health, backups, scheduled
// jobs, the technical settings — and 403 for any other role.

test("an admin sees the system page, makes a backup, runs a job and changes a setting", async ({ page }) => {
  test.slow(); // a backup of the whole database
  await signInStaffWithForm(page);
  await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Sistema" }).click();
  await expect(page).toHaveURL(/\/admin\/sistema$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sistema");
  await waitForHydration(page);
  await expect(page.getByTestId("system-status")).toContainText("En línea");
  expect(await axeViolations(page)).toEqual([]);

  // A backup: created (where it goes is said: this server keeps them on its disk), then listed with a download link that serves the archive.
  await expect(page.getByText("Cada respaldo guarda la base de datos y los archivos subidos. Se guardan en el disco del servidor.")).toBeVisible();
  const before = await page.getByTestId("backup-row").count();
  await page.getByRole("button", { name: "Crear respaldo" }).click();
  await expect(page.getByText(/^Respaldo .+\.zip creado/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("backup-row")).toHaveCount(before + 1);
  const key = (await page.getByText(/^Respaldo .+\.zip creado/).innerText()).match(/^Respaldo (\S+\.zip)/)![1]!;
  const row = page.locator(`[data-testid="backup-row"][data-key="${key}"]`);
  await expect(row).toBeVisible();
  const download = await page.request.get(`/admin/sistema/respaldos/${key}`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/zip");

  // Restoring asks first, naming what will be replaced; cancelling changes nothing.
  await row.getByRole("link", { name: `Restaurar ${key}` }).click();
  await expect(page.getByRole("alertdialog")).toContainText(`Se reemplazarán todos los datos y archivos del sitio por los del respaldo ${key} del`);
  await expect(page.getByRole("alertdialog")).toContainText("el estado actual se guarda antes como otro respaldo");
  await page.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  // A scheduled job run by hand: its last run says so.
  const job = page.locator('[data-testid="cron-row"][data-id="archivos-huerfanos"]');
  await job.getByRole("button", { name: "Ejecutar ahora archivos-huerfanos" }).click();
  await expect(page.getByText("La tarea «archivos-huerfanos» se está ejecutando.")).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(job.getByTestId("cron-last-run")).toContainText("(a mano): correcta", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // Settings: a bad value is refused in Spanish and kept as typed; a good one is saved.
  const maxDays = page.getByLabel("Días que se conservan los registros");
  const original = await maxDays.inputValue();
  await expect(page.getByLabel("Servidor", { exact: true })).toHaveAttribute("readonly", "");
  await expect(page.getByText("Lo fija la variable SMTP_URL.").first()).toBeVisible();
  await maxDays.fill("-3");
  await page.getByRole("button", { name: "Guardar ajustes" }).click();
  await expect(page.getByText("Los días van de 0 a 3650.")).toBeVisible();
  await expect(maxDays).toHaveValue("-3");
  await expect(maxDays).toHaveAttribute("aria-invalid", "true");

  const next = original === "12" ? "13" : "12";
  try {
    await maxDays.fill(next);
    await page.getByRole("button", { name: "Guardar ajustes" }).click();
    await expect(page.getByText("Ajustes guardados.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Días que se conservan los registros")).toHaveValue(next);
  } finally {
    await page.getByLabel("Días que se conservan los registros").fill(original);
    await page.getByRole("button", { name: "Guardar ajustes" }).click();
    await expect(page.getByText("Ajustes guardados.")).toBeVisible();
  }

  // The rate limits (PocketBase's `rateLimits` rules, one field per label): a bad number is refused
  // on its own field and kept; a good one is saved and shown again.
  const codes = page.getByLabel("Códigos de acceso enviados por correo: solicitudes permitidas");
  const codesBefore = await codes.inputValue();
  expect(codesBefore).toMatch(/^\d+$/);
  await codes.fill("0");
  await page.getByRole("button", { name: "Guardar ajustes" }).click();
  await expect(codes).toHaveAttribute("aria-invalid", "true");
  await expect(codes).toHaveAccessibleDescription("Permita al menos 1 solicitud.");
  await expect(codes).toHaveValue("0");
  try {
    await codes.fill(String(Number(codesBefore) + 1));
    await page.getByRole("button", { name: "Guardar ajustes" }).click();
    await expect(page.getByText("Ajustes guardados.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Códigos de acceso enviados por correo: solicitudes permitidas")).toHaveValue(String(Number(codesBefore) + 1));
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    await page.getByLabel("Códigos de acceso enviados por correo: solicitudes permitidas").fill(codesBefore);
    await page.getByRole("button", { name: "Guardar ajustes" }).click();
    await expect(page.getByText("Ajustes guardados.")).toBeVisible();
  }

  // The test email: a bad address is refused in Spanish and kept; a good one receives the message.
  const to = page.getByLabel("Enviar a");
  await to.fill("no-es-correo");
  await page.getByRole("button", { name: "Enviar correo de prueba" }).click();
  await expect(page.getByText("Escriba un correo válido para recibir la prueba")).toBeVisible();
  await expect(to).toHaveValue("no-es-correo");
  const recipient = uniqueEmail("prueba-sistema");
  await to.fill(recipient);
  await page.getByRole("button", { name: "Enviar correo de prueba" }).click();
  await expect(page.getByText(`Enviamos un correo de prueba a ${recipient}.`)).toBeVisible();
  const [mail] = await waitForMail(recipient, { subject: /^Prueba: / });
  expect(mail!.subject).toMatch(/^Prueba: /);
});

test("an editor gets 403 on /admin/sistema and its downloads, and no Sistema link", async ({ page, playwright, context }) => {
  const admin = await playwright.request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: clientHeaders() });
  try {
    await signInAdmin(admin);
    await createStaffMember(admin, context.request, "editor");
  } finally {
    await admin.dispose();
  }
  const response = await page.goto("/admin/sistema");
  expect(response?.status()).toBe(403);
  await expect(page.locator("main")).toContainText(STAFF_AREA_REFUSED);
  await expect(page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Sistema" })).toHaveCount(0);
  expect((await page.request.get("/admin/sistema/respaldos/forja_backup_20260101000000.zip")).status()).toBe(403);
  expect((await page.request.post("/admin/sistema", { headers: { origin: baseUrl() }, form: { intent: "respaldar" } })).status()).toBe(403);
});
