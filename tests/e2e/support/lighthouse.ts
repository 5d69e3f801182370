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

/**
 * Whether Lighthouse itself failed to measure (its trace lost the navigation start, a gatherer
 * broke): then no audit of that run says anything about the page.
 */
export function measurementFailed(lhr: LighthouseResult): boolean {
  if (lhr.runtimeError) return true;
  return Object.values(lhr.audits).some((audit) => /NO_NAVSTART|gatherer encountered an error/i.test(audit.errorMessage ?? ""));
}

/** One Lighthouse run; measured again (up to three times) when Lighthouse could not measure at all. */
export async function runLighthouse(url: string, port: number, categories: readonly LighthouseCategory[]): Promise<LighthouseResult> {
  let lhr: LighthouseResult | undefined;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const result = await lighthouse(url, { port, onlyCategories: [...categories], output: "json", logLevel: "error" });
    if (!result) throw new Error(`Lighthouse no devolvió resultado para ${url}`);
    lhr = result.lhr;
    if (!measurementFailed(lhr)) break;
  }
  return lhr!;
}

/** The audits that cost points, named, so a score below 100 says why. */
export function failingAudits(lhr: LighthouseResult): string[] {
  return Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && !["informative", "notApplicable", "manual"].includes(audit.scoreDisplayMode))
    .map((audit) => `${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
}
