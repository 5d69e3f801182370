import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu"] });
const page = await browser.newPage();
page.on("console", (m) => console.log("console", m.type(), m.text().slice(0, 300)));
page.on("pageerror", (e) => console.log("pageerror", e.message));
await page.addInitScript(() => document.addEventListener("securitypolicyviolation", (e) => console.error("CSP", e.violatedDirective, e.blockedURI)));
for (const p of ["/", "/industrias-design/energia", "/catalogo", "/catalogo/brida-slip-on-acero-2-in-clase-150", "/cotiza"]) {
  await page.goto("http://127.0.0.1:42863" + p);
  await page.waitForSelector("html[data-hydrated]", { timeout: 20000 });
  await page.waitForLoadState("networkidle");
  const info = await page.evaluate(() => ({
    preloads: document.querySelectorAll('head link[rel=modulepreload]').length,
    modules: document.querySelectorAll('script[type=module]').length,
    inert: document.querySelectorAll('script[type="text/forja-module"]').length,
    links: [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.media),
  }));
  console.log(p, JSON.stringify(info));
}
// client navigation still works
await page.goto("http://127.0.0.1:42863/");
await page.waitForSelector("html[data-hydrated]");
await page.click('a[href="/catalogo"]');
await page.waitForURL("**/catalogo");
console.log("nav ok", await page.title());
await browser.close();
