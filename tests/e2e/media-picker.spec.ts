import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./support/fixtures";
import { signInStaffWithForm, STAFF, uniqueToken } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration, savedAtTime } from "./support/site";
import { createStaffMember, signInAdmin } from "./support/staff";

// Issue 16 §3 (docs/decisions/0050): an editor picks a library image for a service with the keyboard
// alone — in its image field and inside its long text — publishes, and the public /servicios page
// and the record API (`servicios` and `medios`) show that image.

interface ServiceRecord {
  id: string;
  nombre: string;
  imagen: string | null;
  descripcion: unknown;
  descripcion_html: string;
}

/** A record API token of the admin (global set-up), to put the service back as it was. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const signedIn = await request.post("/api/collections/_superusers/auth-with-password", { data: { identity: STAFF.email, password: STAFF.password } });
  expect(signedIn.status()).toBe(200);
  return ((await signedIn.json()) as { token: string }).token;
}

async function publicService(request: APIRequestContext, id: string): Promise<ServiceRecord> {
  const response = await request.get(`/api/collections/servicios/records/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ServiceRecord;
}

/** Uploads a small image through /admin/medios; answers its id. */
async function uploadImage(page: Page, alt: string): Promise<string> {
  await page.goto("/admin/medios");
  await waitForHydration(page);
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3d6b8f" } }).png().toBuffer();
  const form = page.getByRole("form", { name: "Subir una imagen" });
  await form.getByLabel("Archivo").setInputFiles({ name: "brida.png", mimeType: "image/png", buffer: png });
  await form.getByLabel("Texto alternativo").fill(alt);
  await form.getByRole("button", { name: "Subir imagen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imagen agregada a la biblioteca." })).toBeVisible();
  return new URL(page.url()).searchParams.get("imagen")!;
}

/** In the open library dialog: searches for `token` and chooses the one image found, keys only. */
async function chooseWithKeyboard(page: Page, token: string, alt: string) {
  const dialog = page.getByRole("dialog", { name: "Elegir una imagen de la biblioteca" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Buscar por texto alternativo")).toBeFocused();
  await page.keyboard.type(token);
  const choices = dialog.getByRole("list", { name: "Imágenes de la biblioteca" }).getByRole("button");
  await expect(choices).toHaveCount(1);
  await expect(dialog.getByRole("status")).toHaveText("1 imagen.");
  await page.keyboard.press("ArrowDown");
  await expect(choices.first()).toBeFocused();
  await expect(choices.first()).toHaveAccessibleName(alt);
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
}

test("an editor picks a library image for a service with the keyboard, publishes, and the site and the API show it", async ({ page, request, newClient }) => {
  test.slow(); // an invitation, an upload with AVIF encoding, the editor and the public page
  const scratch = await newClient();
  const guest = (await newClient()).request;
  await signInAdmin(request);
  const editor = await createStaffMember(request, scratch.request, "editor", "selector");
  await signInStaffWithForm(page, editor.email, editor.password);
  await expect(page).toHaveURL(/\/admin$/);
  await waitForAdminMarker(page);

  const token = uniqueToken();
  const alt = `Brida de acero inoxidable recién maquinada ${token}`;
  const imageId = await uploadImage(page, alt);
  expect(imageId).toMatch(/^[0-9a-f-]{36}$/);

  const services = await guest.get("/api/collections/servicios/records?perPage=1&sort=orden");
  const first = ((await services.json()) as { items: ServiceRecord[] }).items[0]!;
  const before = await publicService(guest, first.id);
  const apiToken = await adminToken(request);
  try {
    await page.goto(`/admin/contenido/servicios/${first.id}`);
    await waitForHydration(page);
    await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(first.nombre);
    const field = page.getByTestId("media-field");
    const choose = field.getByRole("button", { name: "Elegir imagen" });

    // The image field: «Elegir imagen» with Enter, search, arrows, Enter.
    await choose.focus();
    await page.keyboard.press("Enter");
    expect(await axeViolations(page)).toEqual([]);
    await chooseWithKeyboard(page, token, alt);
    await expect(field.getByRole("img", { name: alt })).toBeVisible();
    await expect(field).toContainText(`Imagen elegida: ${alt}`);
    await expect(choose).toBeFocused();

    // Esc closes the dialog and changes nothing.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Elegir una imagen de la biblioteca" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(field).toContainText(`Imagen elegida: ${alt}`);

    // The long text: the toolbar's «Imagen» puts the picture where the cursor is.
    const description = page.getByRole("textbox", { name: "Descripción", exact: true });
    await expect(description).toHaveAttribute("contenteditable", "true");
    await description.click();
    await page.keyboard.press("Control+End");
    await page.getByRole("toolbar", { name: "Formato de Descripción" }).getByRole("button", { name: "Imagen" }).focus();
    await page.keyboard.press("Enter");
    await chooseWithKeyboard(page, token, alt);
    await expect(description.getByRole("img", { name: alt })).toBeVisible();

    await page.getByRole("button", { name: "Publicar" }).click();
    await expect(page.getByTestId("autosave-status")).toHaveText(savedAtTime("Publicado"));

    // The record API: the service names the image, its long text shows it with /medios/ addresses; medios lists it.
    const after = await publicService(guest, first.id);
    expect(after.imagen).toBe(imageId);
    expect(after.descripcion_html).toContain(`<source type="image/avif" srcset="/medios/${imageId}/400.avif 400w`);
    expect(after.descripcion_html).toContain(`alt="${alt}" width="640" height="480"`);
    const medios = await guest.get(`/api/collections/medios/records?filter=${encodeURIComponent(`alt ~ '${token}'`)}`);
    expect(medios.status()).toBe(200);
    expect(((await medios.json()) as { items: unknown[] }).items).toEqual([expect.objectContaining({ id: imageId, alt, ancho: 640, alto: 480, archivo: "640.webp" })]);
    expect((await guest.get(`/api/files/medios/${imageId}/640.webp`)).headers()["content-type"]).toBe("image/webp");

    // The public page: the service's picture (cut 4:3 around the focal point) and the one in its text.
    const visitor = await (await newClient()).newPage();
    await expect(async () => {
      await visitor.goto("/servicios");
      await expect(visitor.locator(`img[src*="/medios/${imageId}/"][src*="-4x3."]`)).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(visitor.locator(`.prose-forja picture source[type="image/avif"][srcset*="/medios/${imageId}/"]`)).toHaveCount(1);
    await expect(visitor.locator(`.prose-forja img[alt="${alt}"]`)).toHaveAttribute("width", "640");

    // The record's history shows the chosen image and its description, not the library's id.
    await page.goto(`/admin/contenido/servicios/${first.id}/historial`);
    const imageRow = page.getByTestId("diff-row").filter({ has: page.getByRole("rowheader", { name: "Imagen", exact: true }) });
    await expect(imageRow).toContainText(`Imagen: ${alt}`);
    await expect(imageRow).not.toContainText(imageId);
    await expect(imageRow.locator(`img[src^="/medios/${imageId}/"]`)).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    const restored = await request.patch(`/api/collections/servicios/records/${first.id}`, { headers: { Authorization: apiToken }, data: { imagen: before.imagen, descripcion: before.descripcion } });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
