import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enterMaintenance, leaveMaintenance, maintenanceGate, MAINTENANCE_MESSAGE, waitForRequestsToEnd } from "./maintenance.server";

// The maintenance gate on a real HTTP server (docs/decisions/0055): while a restore runs every
// request is answered 503 with Retry-After (a Spanish page, or PocketBase's body under /api/), and
// the restore can wait for the requests already being answered.

let server: http.Server;
let url = "";
let release: (() => void) | null = null;

beforeAll(async () => {
  server = http.createServer((req, res) =>
    maintenanceGate(req, res, () => {
      if (req.url === "/lento") {
        release = () => res.end("listo");
        return;
      }
      res.end("normal");
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("maintenance", () => {
  it("answers 503 with Retry-After to pages and the API while on, and lets requests through once off", async () => {
    expect(await (await fetch(`${url}/`)).text()).toBe("normal");
    enterMaintenance();
    try {
      const page = await fetch(`${url}/catalogo`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("30");
      expect(page.headers.get("content-type")).toContain("text/html");
      const html = await page.text();
      expect(html).toContain('lang="es-MX"');
      expect(html).toContain("Sitio en mantenimiento");
      const api = await fetch(`${url}/api/collections/productos/records`);
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ status: 503, message: MAINTENANCE_MESSAGE, data: {} });
    } finally {
      leaveMaintenance();
    }
    expect(await (await fetch(`${url}/`)).text()).toBe("normal");
  });

  it("waits for the requests already being answered", async () => {
    const slow = fetch(`${url}/lento`);
    while (!release) await new Promise((resolve) => setTimeout(resolve, 10));
    let waited = false;
    const waiting = waitForRequestsToEnd(5_000).then(() => (waited = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(waited).toBe(false);
    release();
    expect(await (await slow).text()).toBe("listo");
    await waiting;
    expect(waited).toBe(true);
  });
});
