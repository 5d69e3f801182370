import { expect, test } from "./support/fixtures";
import { signInStaffWithForm } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { waitForHydration } from "./support/site";

// Issue 17 §4, docs/decisions/0059: /admin/sistema's S3 storage fieldsets. Nothing here turns S3 on
// (the test server is shared with other specs): an incomplete connection is refused in Spanish on
// its fields and kept as typed, and «Probar conexión» explains that S3 is not enabled.

test("an admin sees the S3 storage fields, gets Spanish errors for an incomplete bucket and can test the connection", async ({ page }) => {
  await signInStaffWithForm(page);
  await page.goto("/admin/sistema");
  await waitForHydration(page);
  const files = page.getByRole("group", { name: "Almacenamiento S3 de los archivos" });
  const backups = page.getByRole("group", { name: "Almacenamiento S3 de los respaldos" });
  await expect(files).toBeVisible();
  await expect(backups).toBeVisible();
  await expect(files.getByLabel("Clave secreta")).toHaveAttribute("type", "password");
  await expect(files.getByLabel("Clave secreta")).toHaveValue("");

  await files.getByLabel("Guardar los archivos subidos en este bucket").check();
  await files.getByLabel("Bucket", { exact: true }).fill("");
  await files.getByLabel("Dirección del servicio (endpoint)").fill("s3.forja.example");
  await page.getByRole("button", { name: "Guardar ajustes" }).click();
  await expect(files.getByText("Escriba el nombre del bucket.")).toBeVisible();
  await expect(files.getByText(/^Escriba la dirección completa del servicio, con http:\/\/ o https:\/\//)).toBeVisible();
  await expect(files.getByLabel("Bucket", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(files.getByLabel("Dirección del servicio (endpoint)")).toHaveValue("s3.forja.example");
  expect(await axeViolations(page)).toEqual([]);

  // Nothing was saved: S3 is still off, and the test says so.
  await page.goto("/admin/sistema");
  await waitForHydration(page);
  await expect(page.getByRole("group", { name: "Almacenamiento S3 de los archivos" }).getByLabel("Guardar los archivos subidos en este bucket")).not.toBeChecked();
  await page.getByRole("button", { name: "Probar conexión de los archivos" }).click();
  await expect(page.getByText("El almacenamiento S3 de los archivos no está activado: actívelo y guarde los ajustes antes de probarlo.")).toBeVisible();
});
