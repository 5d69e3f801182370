import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  OIDC,
  PASSWORD,
  SESSION_COOKIE,
  baseUrl,
  createCustomer,
  signInStaffWithForm,
  signInWithForm,
  submitRegistration,
  uniqueEmail,
  uniqueToken,
  useOidcIdentity,
} from "./support/accounts";
import { waitForHydration } from "./support/site";

// Issue 3 §2: no cookie the app sets is ever larger than 4096 bytes. Every Set-Cookie header of
// every response (redirects included) is measured, and what the browser ends up holding.

const LIMIT = 4096;

interface SetCookie {
  url: string;
  value: string;
}

/** Collects every Set-Cookie header the app's origin sends to this context. */
function recordSetCookies(context: BrowserContext): { all: () => Promise<SetCookie[]> } {
  const origin = new URL(baseUrl()).origin;
  const pending: Promise<SetCookie[]>[] = [];
  context.on("response", (response) => {
    if (new URL(response.url()).origin !== origin) return;
    pending.push(
      response
        .headersArray()
        .then((headers) => headers.filter((header) => header.name.toLowerCase() === "set-cookie").map((header) => ({ url: response.url(), value: header.value })))
        .catch(() => []),
    );
  });
  return { all: async () => (await Promise.all(pending)).flat() };
}

const FLOWS: { name: string; run: (page: Page, context: BrowserContext) => Promise<void> }[] = [
  {
    name: "register",
    run: async (page) => {
      await page.goto("/registro");
      await waitForHydration(page);
      await submitRegistration(page, { name: `Galleta Registro ${uniqueToken()}`, email: uniqueEmail("galleta"), password: PASSWORD });
      await expect(page).toHaveURL(/\/cuenta\?bienvenida=1$/);
    },
  },
  {
    name: "login",
    run: async (page, context) => {
      const customer = await createCustomer(context.request);
      await context.clearCookies();
      await signInWithForm(page, customer.email, customer.password);
      await expect(page).toHaveURL(/\/cuenta$/);
    },
  },
  {
    name: "provider login",
    run: async (page, context) => {
      // A long name and a long email: the provider's data must not end up in a cookie.
      await useOidcIdentity(context, { email: uniqueEmail(`proveedor.${"x".repeat(30)}`), name: `Nombre Muy Largo ${"De Prueba ".repeat(30)}` });
      await page.goto("/login");
      await waitForHydration(page);
      const popup = page.waitForEvent("popup");
      await page.getByRole("link", { name: `Continuar con ${OIDC.name}` }).click();
      await (await popup).waitForEvent("close");
      await expect(page).toHaveURL(/\/cuenta$/);
    },
  },
  {
    name: "staff login",
    run: async (page) => {
      await signInStaffWithForm(page);
      await expect(page).toHaveURL(/\/admin$/);
    },
  },
];

for (const flow of FLOWS) {
  test(`every cookie set during ${flow.name} is under ${LIMIT} bytes`, async ({ page, context }) => {
    const recorder = recordSetCookies(context);
    await flow.run(page, context);
    await waitForHydration(page);

    const setCookies = await recorder.all();
    expect(
      setCookies.some((header) => header.value.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(header.value)),
      "the session cookie was seen among the recorded Set-Cookie headers",
    ).toBe(true);
    for (const header of setCookies) {
      expect(Buffer.byteLength(header.value, "utf8"), `Set-Cookie from ${header.url}: ${header.value.slice(0, 80)}…`).toBeLessThan(LIMIT);
    }

    const documentCookie = await page.evaluate(() => document.cookie);
    expect(Buffer.byteLength(documentCookie, "utf8")).toBeLessThan(LIMIT);
    const stored = await context.cookies(baseUrl());
    expect(stored.map((cookie) => cookie.name)).toContain(SESSION_COOKIE);
    for (const cookie of stored) {
      expect(Buffer.byteLength(`${cookie.name}=${cookie.value}`, "utf8"), cookie.name).toBeLessThan(LIMIT);
    }
    // What the browser sends back in one Cookie header.
    const header = stored.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
    expect(Buffer.byteLength(header, "utf8")).toBeLessThan(LIMIT);
  });
}
