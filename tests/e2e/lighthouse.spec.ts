import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { baseUrl } from "./support/accounts";
import { expect, test } from "./support/fixtures";

// Issue 12 §3 (and 13): Lighthouse keeps 100 in accessibility, best practices and SEO on the pages a
// buyer lands on — the home page, /cotiza, an industry page, the catalogue and a product page — on
// the production build. Lighthouse drives its own Chromium (the same binary as the other browser
// tests) through the DevTools protocol; a failing audit is named in the message.

const PAGES = ["/", "/cotiza", "/industrias-design/energia", "/catalogo", "/catalogo/brida-slip-on-acero-2-in-clase-150"];
const CATEGORIES = ["accessibility", "best-practices", "seo"] as const;

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

let chrome: chromeLauncher.LaunchedChrome | undefined;

test.beforeAll(async () => {
  // The browser the project's config resolved (CHROME_PATH, Debian's chromium, or Playwright's own).
  const chromePath = test.info().project.use.launchOptions?.executablePath;
  chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
});

test.afterAll(async () => {
  await chrome?.kill();
});

for (const path of PAGES) {
  test(`Lighthouse 100 on ${path}`, async () => {
    const result = await lighthouse(`${baseUrl()}${path}`, { port: chrome!.port, onlyCategories: [...CATEGORIES], output: "json", logLevel: "error" });
    const lhr = result!.lhr;
    const failing = Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && !["informative", "notApplicable", "manual"].includes(audit.scoreDisplayMode))
      .map((audit) => `${audit.id}: ${audit.title}`);
    for (const category of CATEGORIES) expect(lhr.categories[category]?.score, `${path} ${category} — ${failing.join("; ")}`).toBe(1);
  });
}
