import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, test } from "./support/fixtures";
import { signInStaffWithForm, STAFF, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration } from "./support/site";
import { createStaffMember, signInAdmin } from "./support/staff";

// Issue 16 §3: the media library at /admin/medios (docs/decisions/0046). An editor uploads an image
// (a missing alt text is refused in Spanish, what was typed is kept), sets its focal point by
// clicking on it, finds it in the grid and at its public address; deleting it while a service uses
// it asks first and names the service. axe finds nothing on the screen in each state.

/** A record API token of the admin (global set-up), to make a service use the image. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const signedIn = await request.post("/api/collections/_superusers/auth-with-password", { data: { identity: STAFF.email, password: STAFF.password } });
  expect(signedIn.status()).toBe(200);
  return ((await signedIn.json()) as { token: string }).token;
}

async function setServiceImage(request: APIRequestContext, token: string, serviceId: string, image: string | null) {
  const response = await request.patch(`/api/collections/servicios/records/${serviceId}`, { headers: { Authorization: token }, data: { imagen: image } });
  expect(response.status(), await response.text()).toBe(200);
}

const upload = (page: Page) => page.getByRole("form", { name: "Subir una imagen" });

test("an editor uploads an image, sets its focal point and is asked before deleting it while in use", async ({ page, request, newClient }) => {
  test.slow(); // an invitation, an upload with AVIF encoding and several pages
  const scratch = await newClient();
  await signInAdmin(request);
  const editor = await createStaffMember(request, scratch.request, "editor", "medios");
  await signInStaffWithForm(page, editor.email, editor.password);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);

  await page.getByRole("navigation", { name: "Administración" }).getByRole("link", { name: "Imágenes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Imágenes");
  await waitForHydration(page);
  expect(await axeViolations(page)).toEqual([]);

  const alt = `Soporte de aluminio anodizado ${uniqueToken()}`;
  // A photo-sized file (noise does not compress): well past the 64 KB bound of an ordinary form.
  const png = await sharp(randomBytes(1200 * 800 * 3), { raw: { width: 1200, height: 800, channels: 3 } }).png().toBuffer();
  expect(png.length).toBeGreaterThan(1024 * 1024);
  await upload(page).getByLabel("Archivo").setInputFiles({ name: "soporte.png", mimeType: "image/png", buffer: png });
  await upload(page).getByLabel("Vertical (0 arriba, 1 abajo)").fill("0.3");

  // Without alt text: a Spanish error, the focal point kept.
  await upload(page).getByRole("button", { name: "Subir imagen" }).click();
  await expect(upload(page).getByText("Describa la imagen: qué muestra, en una frase.")).toBeVisible();
  await expect(upload(page).getByLabel("Vertical (0 arriba, 1 abajo)")).toHaveValue("0.3");
  await expect(upload(page).getByLabel("Texto alternativo")).toHaveAttribute("aria-invalid", "true");
  expect(await axeViolations(page)).toEqual([]);

  await waitForHydration(page);
  await upload(page).getByLabel("Archivo").setInputFiles({ name: "soporte.png", mimeType: "image/png", buffer: png });
  await upload(page).getByLabel("Texto alternativo").fill(alt);
  await upload(page).getByRole("button", { name: "Subir imagen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imagen agregada a la biblioteca." })).toBeVisible();
  const id = new URL(page.url()).searchParams.get("imagen")!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  // In the grid, with its alt text and size; its variants are public.
  const item = page.getByTestId("media-item").filter({ hasText: alt });
  await expect(item).toContainText("1200 × 800 px");
  await expect(item.getByRole("img", { name: alt })).toBeVisible();
  const avif = await request.get(`/medios/${id}/800.avif`);
  expect(avif.status()).toBe(200);
  expect(avif.headers()["content-type"]).toBe("image/avif");
  // Once: the route sets the stored-file headers itself (server/security.ts FILE_ROUTES).
  expect(avif.headers()["x-content-type-options"]).toBe("nosniff");

  // The focal point, by clicking on the picture (the inputs follow), then saved.
  await waitForHydration(page);
  const edit = page.getByRole("region", { name: /Editar «soporte\.png»/ });
  const picture = edit.getByTestId("foco-imagen");
  const box = (await picture.boundingBox())!;
  await picture.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
  await expect(edit.getByLabel("Horizontal (0 izquierda, 1 derecha)")).toHaveValue("0.25");
  await expect(edit.getByLabel("Vertical (0 arriba, 1 abajo)")).toHaveValue("0.75");
  await edit.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(edit.getByRole("status")).toHaveText("Cambios guardados.");
  await page.reload();
  await expect(page.getByRole("region", { name: /Editar «soporte\.png»/ }).getByLabel("Horizontal (0 izquierda, 1 derecha)")).toHaveValue("0.25");
  await expect(page.getByRole("img", { name: alt }).first()).toHaveAttribute("style", /object-position: ?25% 75%/);

  // A service uses it: deleting asks first and says where.
  const token = await adminToken(request);
  const services = await request.get("/api/collections/servicios/records?perPage=1&sort=orden", { headers: { Authorization: token } });
  const service = ((await services.json()) as { items: { id: string; nombre: string }[] }).items[0]!;
  await setServiceImage(request, token, service.id, id);
  try {
    await page.getByRole("button", { name: "Eliminar imagen" }).click();
    const warning = page.getByRole("alert").filter({ hasText: "Esta imagen está en uso." });
    await expect(warning).toContainText(`Se usa en: Servicio «${service.nombre}».`);
    expect(await axeViolations(page)).toEqual([]);
    await warning.getByRole("link", { name: "Conservarla" }).click();
    await expect(page.getByTestId("media-item").filter({ hasText: alt })).toHaveCount(1);
  } finally {
    await setServiceImage(request, token, service.id, null);
  }

  // No longer used: deleted at once.
  await page.getByRole("button", { name: "Eliminar imagen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imagen eliminada de la biblioteca." })).toBeVisible();
  await expect(page.getByTestId("media-item").filter({ hasText: alt })).toHaveCount(0);
  expect((await request.get(`/medios/${id}/800.avif`)).status()).toBe(404);
});
