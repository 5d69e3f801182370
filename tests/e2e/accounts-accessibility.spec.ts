import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createCustomer, signInStaffWithForm, signInWithForm } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { waitForAdminMarker } from "./support/shop";
import { waitForHydration } from "./support/site";

// Issue 3 / issue 2 §5: axe finds nothing on the account and staff screens, signed in where needed.

type Who = "guest" | "customer" | "staff";

const PAGES: { path: string; who: Who; h1: RegExp }[] = [
  { path: "/login", who: "guest", h1: /Iniciar sesión/ },
  { path: "/registro", who: "guest", h1: /Crear cuenta/ },
  { path: "/recuperar", who: "guest", h1: /Recuperar contraseña/ },
  // A token that is not (or no longer) valid: the page says so at once (the form itself: accounts-password.spec.ts).
  { path: "/recuperar/nueva?token=x", who: "guest", h1: /Enlace no válido/ },
  { path: "/cuenta", who: "customer", h1: /Hola, / },
  { path: "/admin/login", who: "guest", h1: /Acceso del personal/ },
  { path: "/admin", who: "staff", h1: /Resumen/ },
  { path: "/admin/clientes", who: "staff", h1: /Clientes/ },
  { path: "/admin/personal", who: "staff", h1: /Personal/ },
  { path: "/admin/medios", who: "staff", h1: /Imágenes/ },
  { path: "/admin/contenido", who: "staff", h1: /Contenido/ },
  { path: "/admin/contenido/preguntas", who: "staff", h1: /Preguntas frecuentes/ },
  { path: "/admin/contenido/preguntas/nuevo", who: "staff", h1: /Agregar pregunta/ },
  { path: "/admin/bienvenida?token=x", who: "guest", h1: /Enlace no válido/ },
];

async function signIn(page: Page, who: Who, request: APIRequestContext) {
  if (who === "customer") {
    const customer = await createCustomer(request, { company: "Aceros Especiales", phone: "4427654321" });
    await signInWithForm(page, customer.email, customer.password);
  } else if (who === "staff") {
    await signInStaffWithForm(page);
    await expect(page).toHaveURL(/\/admin$/);
    // The panel sets its browser marker once it has loaded; leaving before that is a signed-out visit.
    await waitForAdminMarker(page);
  }
}

test.describe("axe on the account screens", () => {
  for (const { path, who, h1 } of PAGES) {
    test(`${path} (${who}) has no WCAG 2.1 A/AA violations`, async ({ page, request }) => {
      await signIn(page, who, request);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
      await waitForHydration(page);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test("/registro with its Spanish errors showing has no violations", async ({ page }) => {
    await page.goto("/registro");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(page.getByText("Para crear su cuenta debe aceptar el aviso de privacidad.")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
