import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCors } from "./cors";

// The CORS middleware on a real Express server: API answers and preflights carry PocketBase's
// permissive CORS (no credentials); pages carry none.

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(apiCors());
  app.all("/{*splat}", (_req, res) => void res.json({ ok: true }));
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("apiCors", () => {
  it("lets any origin read an API answer, never with credentials", async () => {
    const response = await fetch(`${base}/api/collections/productos/records`, { headers: { Origin: "https://cliente.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await response.json()).toEqual({ ok: true });
  });

  it("answers a preflight with the methods and the headers asked for, without reaching the route", async () => {
    const response = await fetch(`${base}/api/batch`, {
      method: "OPTIONS",
      headers: { Origin: "https://cliente.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
    expect(await response.text()).toBe("");
  });

  it("sends no CORS headers for pages", async () => {
    const response = await fetch(`${base}/cotiza`, { headers: { Origin: "https://cliente.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${base}/cotiza`, { method: "OPTIONS", headers: { Origin: "https://cliente.example", "Access-Control-Request-Method": "POST" } });
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
  });
});
