import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/site";

// The site's Content Security Policy holds without complaint: no page of the public site or the
// sign-in screens makes the browser report a violation (a caught `new Function` probe counts too —
// Lighthouse's best-practices score reports it as an issue).

const PAGES = ["/", "/servicios", "/industrias-design/energia", "/catalogo", "/catalogo/brida-slip-on-acero-2-in-clase-150", "/cotiza", "/contact", "/faqs", "/login", "/registro", "/admin/login"];

test("no page reports a Content Security Policy violation", async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  for (const path of PAGES) {
    expect((await page.goto(path))?.status(), path).toBe(200);
    await waitForHydration(page);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([]);
  }
});
