import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

// Lighthouse on the pages a buyer lands on, shared by tests/e2e/lighthouse.spec.ts and
// scripts/lighthouse.mjs (`npm run lighthouse:scores`). Lighthouse drives its own Chromium through
// the DevTools protocol with its defaults: a mobile device and simulated slow 4G.

export const LIGHTHOUSE_PAGES = ["/", "/cotiza", "/industrias-design/energia", "/catalogo", "/catalogo/brida-slip-on-acero-2-in-clase-150"];
export const LIGHTHOUSE_CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];
export type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

export function launchLighthouseChrome(chromePath: string | undefined): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
}

export async function runLighthouse(url: string, port: number, categories: readonly LighthouseCategory[]): Promise<LighthouseResult> {
  const result = await lighthouse(url, { port, onlyCategories: [...categories], output: "json", logLevel: "error" });
  if (!result) throw new Error(`Lighthouse no devolvió resultado para ${url}`);
  return result.lhr;
}

/** The audits that cost points, named, so a score below 100 says why. */
export function failingAudits(lhr: LighthouseResult): string[] {
  return Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && !["informative", "notApplicable", "manual"].includes(audit.scoreDisplayMode))
    .map((audit) => `${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
}
