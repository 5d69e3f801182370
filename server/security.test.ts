import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, securityHeaders } from "./security";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe("createNonce", () => {
  it("is 16 random bytes in base64, different on every call", () => {
    const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });
});

describe("contentSecurityPolicy", () => {
  it("allows only nonce-carrying scripts in production", () => {
    const nonce = createNonce();
    const policy = directives(contentSecurityPolicy({ nonce }, false));
    expect(policy.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
    expect(policy.get("script-src")).not.toContain("'unsafe-eval'");
    expect(policy.get("connect-src")).toEqual(["'self'"]);
  });

  it("allows a cached page's inline scripts by their hashes instead of a nonce", () => {
    const hashes = ["47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "OpbTTTGnk0k+ZyhOhJtFBT0mu3+uOTvvQCHR4tSQdM4="];
    const policy = directives(contentSecurityPolicy({ hashes }, false));
    expect(policy.get("script-src")).toEqual(["'self'", `'sha256-${hashes[0]}'`, `'sha256-${hashes[1]}'`]);
    expect(policy.get("script-src")!.join(" ")).not.toMatch(/nonce|unsafe/);
    expect(directives(contentSecurityPolicy({ hashes: [] }, false)).get("script-src")).toEqual(["'self'"]);
  });

  it("forbids framing, plugins and foreign base URIs and form targets", () => {
    const policy = directives(contentSecurityPolicy({ nonce: createNonce() }, false));
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
  });

  it("lets WebAssembly compile and eval run only for the CAD worker's script", () => {
    const nonce = createNonce();
    expect(directives(contentSecurityPolicy({ nonce }, false, { cadWorker: true })).get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'wasm-unsafe-eval'", "'unsafe-eval'"]);
    expect(directives(contentSecurityPolicy({ nonce }, false)).get("script-src")!.join(" ")).not.toMatch(/eval/);
    expect(directives(contentSecurityPolicy({ hashes: [] }, false, { cadWorker: false })).get("script-src")).toEqual(["'self'"]);
  });

  it("relaxes scripts and websockets only in development", () => {
    const policy = directives(contentSecurityPolicy({ nonce: createNonce() }, true));
    expect(policy.get("script-src")).toContain("'unsafe-inline'");
    expect(policy.get("connect-src")).toEqual(["'self'", "ws:", "wss:"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  });
});

describe("securityHeaders on a real Express server", () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    const app = express();
    app.use(securityHeaders(false));
    app.get("/", (_req, res) => {
      res.type("text/plain").send(String(res.locals.cspNonce));
    });
    // Any other path answers too (Express's own 404 would replace the policy with its own).
    app.use((_req, res) => {
      res.type("text/plain").send("ok");
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends a policy whose nonce is the one given to the page, fresh per response", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(baseUrl);
      const nonce = await response.text();
      expect(response.headers.get("content-security-policy")).toContain(`script-src 'self' 'nonce-${nonce}'`);
      seen.add(nonce);
    }
    expect(seen.size).toBe(3);
  });

  it("allows WebAssembly and eval in the CAD worker's script only, not in pages or other scripts", async () => {
    const scriptSrc = async (path: string) => {
      const response = await fetch(`${baseUrl}${path}`);
      await response.arrayBuffer();
      return directives(response.headers.get("content-security-policy") ?? "").get("script-src") ?? [];
    };
    expect(await scriptSrc("/assets/cad-worker-CQcoG7W-.js")).toEqual(expect.arrayContaining(["'wasm-unsafe-eval'", "'unsafe-eval'"]));
    for (const path of ["/", "/cotiza", "/assets/cotiza-Y9wQBVjM.js", "/assets/cad-worker-x.js/extra", "/cad-worker-CQcoG7W-.js"]) {
      expect((await scriptSrc(path)).join(" "), path).not.toMatch(/eval/);
    }
  });

  it("sends the other protective headers, and no HSTS over plain http", async () => {
    const response = await fetch(baseUrl);
    await response.arrayBuffer();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });
});
