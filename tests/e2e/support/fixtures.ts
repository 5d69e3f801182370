import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions } from "@playwright/test";

// The browser tests' `test`: every test (and every extra browser context it opens) talks to the
// server from its own client IP. The server trusts X-Forwarded-For from loopback (TRUST_PROXY's
// default), so the per-IP rate limits of sign-in, registration and password reset never count one
// test's requests against another's.

let clientCounter = 0;

/** A client IP no other test of this run uses: 10.<worker>.<n>.<n>. */
export function nextClientIp(workerIndex = Number(process.env.TEST_WORKER_INDEX ?? 0)): string {
  clientCounter += 1;
  return `10.${workerIndex % 250}.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
}

export function clientHeaders(ip = nextClientIp()): Record<string, string> {
  return { "x-forwarded-for": ip };
}

interface Fixtures {
  /** This test's client IP (sent as X-Forwarded-For by `page`, `context` and `request`). */
  clientIp: string;
  /** Opens another browser (a second device): own cookies, own client IP; closed after the test. */
  newClient: (options?: BrowserContextOptions) => Promise<BrowserContext>;
}

async function openContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: "es-MX",
    timezoneId: "America/Mexico_City",
    ...options,
    extraHTTPHeaders: { ...clientHeaders(), ...options.extraHTTPHeaders },
  });
}

export const test = base.extend<Fixtures>({
  // Playwright needs the (empty) fixtures object pattern here.
  // eslint-disable-next-line no-empty-pattern
  clientIp: async ({}, use, testInfo) => {
    await use(nextClientIp(testInfo.workerIndex));
  },
  extraHTTPHeaders: async ({ clientIp }, use) => {
    await use({ "x-forwarded-for": clientIp });
  },
  newClient: async ({ browser }, use) => {
    const opened: BrowserContext[] = [];
    await use(async (options) => {
      const context = await openContext(browser, options);
      opened.push(context);
      return context;
    });
    for (const context of opened) await context.close();
  },
});

export { expect };
