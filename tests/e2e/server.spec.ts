import { createHash } from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { INDUSTRIES, waitForHydration } from "./support/site";

// Issue 2 §2 (headers, caching), §4.9 (health) and §5 (SEO files, JSON-LD, a clean console).

interface InlineScript {
  nonce: string | undefined;
  content: string;
}

/** Executable inline scripts (JSON data blocks are not scripts the CSP governs). */
function inlineScripts(html: string): InlineScript[] {
  const scripts: InlineScript[] = [];
  for (const [, attributes, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(attributes) || /type="application\/(ld\+)?json"/.test(attributes)) continue;
    scripts.push({ nonce: /\bnonce="([^"]*)"/.exec(attributes)?.[1], content });
  }
  return scripts;
}

function scriptSources(csp: string): string[] {
  const directive = csp.split(";").map((part) => part.trim()).find((part) => part.startsWith("script-src "));
  expect(directive, `CSP has script-src: ${csp}`).toBeDefined();
  return directive!.split(/\s+/).slice(1);
}

/**
 * Every inline script of the response runs under its CSP, and nothing else inline would: either
 * by this response's nonce, or (for pages cached per build) by the sha256 of each script.
 * Returns the nonce, if the response used one.
 */
function expectCspCoversInlineScripts(csp: string, html: string): string | undefined {
  const sources = scriptSources(csp);
  expect(sources).not.toContain("'unsafe-inline'");
  expect(sources).not.toContain("'unsafe-eval'");
  const nonce = sources.find((source) => source.startsWith("'nonce-"))?.slice("'nonce-".length, -1);
  const scripts = inlineScripts(html);
  expect(scripts.length, "the page has inline hydration scripts").toBeGreaterThan(0);
  for (const script of scripts) {
    const hash = `'sha256-${createHash("sha256").update(script.content).digest("base64")}'`;
    const allowed = (nonce !== undefined && script.nonce === nonce) || sources.includes(hash);
    expect(allowed, `inline script allowed by the CSP: ${script.content.slice(0, 60)}`).toBe(true);
  }
  expect(html).not.toContain("FORJAcspNONCEplaceholder");
  return nonce;
}

test.describe("security headers", () => {
  test("a rendered page's CSP nonce matches its inline scripts and is new on every response", async ({ request }) => {
    // The 404 page is rendered per request (never cached), so it must use a per-response nonce.
    const responses = [await request.get("/esto/no-existe"), await request.get("/esto/no-existe")];
    const nonces: string[] = [];
    for (const response of responses) {
      expect(response.status()).toBe(404);
      const nonce = expectCspCoversInlineScripts(response.headers()["content-security-policy"], await response.text());
      expect(nonce, "a per-request page uses a nonce").toBeDefined();
      expect(nonce!.length).toBeGreaterThanOrEqual(16);
      nonces.push(nonce!);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test("a cached public page's CSP allows exactly its inline scripts on every load", async ({ request }) => {
    const responses = [await request.get("/servicios"), await request.get("/servicios"), await request.get("/servicios?utm_source=correo")];
    const nonces: (string | undefined)[] = [];
    for (const response of responses) {
      expect(response.status()).toBe(200);
      const csp = response.headers()["content-security-policy"];
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      nonces.push(expectCspCoversInlineScripts(csp, await response.text()));
    }
    // A nonce, when the page uses one, is never reused: substituted per response, not cached.
    const used = nonces.filter((nonce): nonce is string => nonce !== undefined);
    expect(new Set(used).size).toBe(used.length);
  });

  test("pages send nosniff, a strict referrer policy and no framework banner", async ({ request }) => {
    for (const path of ["/", "/industrias-design/minera", "/esto/no-existe", "/api/health"]) {
      const headers = (await request.get(path)).headers();
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(headers["x-request-id"], path).toBeTruthy();
      expect(headers["x-powered-by"], path).toBeUndefined();
    }
  });

  test("the browser runs cached and rendered pages under their CSP without violations", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Twice, so the second load certainly comes from the per-build page cache.
    for (let load = 0; load < 2; load++) {
      await page.goto("/");
      await waitForHydration(page);
    }
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Servicios" }).click();
    await expect(page.locator("h1")).toHaveText(/Del concepto a la pieza terminada/);
    await page.goto("/esto/no-existe");
    await waitForHydration(page);
    expect(violations).toEqual([]);
  });

  test("hashed assets are cached for a year and immutable; HTML is not", async ({ page, request }) => {
    const assets: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/assets/")) assets.push(response.url());
    });
    const response = await page.goto("/");
    await waitForHydration(page);
    expect(response?.headers()["cache-control"] ?? "").not.toContain("immutable");
    const scripts = assets.filter((url) => url.endsWith(".js"));
    const styles = assets.filter((url) => url.endsWith(".css"));
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const url of [scripts[0], styles[0]]) {
      const asset = await request.get(url);
      expect(asset.status()).toBe(200);
      expect(new URL(url).pathname).toMatch(/-[\w-]{6,}\.(js|css)$/);
      const cacheControl = asset.headers()["cache-control"];
      expect(cacheControl).toContain("immutable");
      expect(cacheControl).toContain("max-age=31536000");
      expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    }
    const version = await request.get("/version.json");
    expect(version.headers()["cache-control"]).toContain("no-cache");
  });
});

test.describe("connections", () => {
  test("an idle keep-alive connection is still open after Node's usual 5 s, so reusing it never gets a reset", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; port: number }>((resolve, reject) => {
        const request = http.get(new URL("/api/health", process.env.E2E_BASE_URL), { agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, port: request.socket?.localPort ?? 0 }));
        });
        request.on("error", reject);
      });
    try {
      const first = await get();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get();
      expect(first.status).toBe(200);
      // Same local port: the very same connection answered again.
      expect(second).toEqual({ status: 200, port: first.port });
    } finally {
      agent.destroy();
    }
  });
});

test.describe("API and SEO files", () => {
  test("/api/health answers 200 after a database round trip", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    const body = await response.json();
    expect(body).toMatchObject({ code: 200, message: "API is healthy." });
    expect(body.data).toMatchObject({ database: "pglite" });
  });

  test("/sitemap.xml lists the public pages and the 10 industries", async ({ request }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("xml");
    const xml = await response.text();
    expect(xml).toContain("<urlset");
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
    for (const { slug } of INDUSTRIES) expect(locations).toContain(`/industrias-design/${slug}`);
    for (const path of ["/", "/servicios", "/industrias", "/faqs", "/contact", "/cotiza", "/aviso-de-privacidad", "/terminos"]) {
      expect(locations).toContain(path);
    }
    for (const path of locations) expect(path).not.toMatch(/^\/(admin|quotes|checkout)/);
  });

  test("/robots.txt disallows the private areas and points to the sitemap", async ({ request }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    const text = await response.text();
    const disallowed = [...text.matchAll(/^Disallow:\s*(\S+)/gim)].map((match) => match[1]);
    expect(disallowed).toEqual(expect.arrayContaining(["/admin", "/quotes", "/checkout"]));
    expect(text).toMatch(/^Sitemap:\s*\S+\/sitemap\.xml/im);
  });

  test("the home page carries JSON-LD LocalBusiness data", async ({ page }) => {
    await page.goto("/");
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const business = blocks.map((text) => JSON.parse(text)).find((data) => data["@type"] === "LocalBusiness");
    expect(business).toBeDefined();
    expect(business).toMatchObject({ "@context": "https://schema.org", name: "Forja Diseño y Manufactura" });
    expect(business.address).toMatchObject({ "@type": "PostalAddress", addressCountry: "MX" });
    expect(business.telephone).toBeTruthy();
  });

  test("pages have a Spanish title, description and Open Graph tags", async ({ page }) => {
    await page.goto("/servicios");
    await expect(page).toHaveTitle("Servicios | Forja");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S{20,}|.{40,}/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Servicios | Forja");
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute("content", "es_MX");
  });

  test("/ loads with no console errors and no failed requests (favicon included)", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });

    // The build check runs about 1 s after start; wait for it so its request is covered too.
    const buildCheck = page.waitForResponse((response) => new URL(response.url()).pathname === "/version.json", { timeout: 10_000 });
    await page.goto("/");
    await waitForHydration(page);
    const favicon = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(favicon).toBeTruthy();
    const faviconResponse = await page.request.get(favicon!);
    expect(faviconResponse.status()).toBe(200);
    expect(faviconResponse.headers()["content-type"]).toContain("image/png");
    expect((await buildCheck).status()).toBe(200);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
  });
});
