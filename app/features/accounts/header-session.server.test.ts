import { describe, expect, it, vi } from "vitest";

// The header's label before JavaScript: the cached variant when the page cache renders, else the
// real session (a real better-auth session on the test database).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("header-session"));

import { registeredCustomer, requestMeta } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { hasSessionCookie, headerSignedIn } from "./header-session.server";

let customerCookie = "";

useTestFileDatabase(dataDir, async () => {
  customerCookie = (await registeredCustomer("Cliente Encabezado", `cliente-encabezado-${process.pid}@ejemplo.mx`, "Encabezado-Cliente-1")).cookie;
});

describe("hasSessionCookie", () => {
  it("sees better-auth's session cookie, plain or __Secure-, among others", () => {
    expect(hasSessionCookie("forja.session_token=abc.def")).toBe(true);
    expect(hasSessionCookie("forja_sesion=1; forja.session_token=abc.def; otro=2")).toBe(true);
    expect(hasSessionCookie("__Secure-forja.session_token=abc.def")).toBe(true);
  });

  it("is false without it: no header, only the readable hint, an empty value, a lookalike name", () => {
    for (const header of [null, undefined, "", "forja_sesion=1", "forja.session_token=", "xforja.session_token=abc", "forja.session_token_x=abc", "forja.session_data=abc"]) {
      expect(hasSessionCookie(header), String(header)).toBe(false);
    }
  });
});

describe("headerSignedIn", () => {
  it("on a cached page follows the variant only (its render has no cookie)", async () => {
    expect(await headerSignedIn(requestMeta("/"), "sesion")).toBe(true);
    expect(await headerSignedIn(requestMeta("/", { cookie: customerCookie }), "anonima")).toBe(false);
  });

  it("on any other page asks the session: a valid cookie is signed in, a stale or forged one is not", async () => {
    expect(customerCookie).toMatch(/forja\.session_token=/);
    expect(await headerSignedIn(requestMeta("/cuenta", { cookie: customerCookie }), null)).toBe(true);
    expect(await headerSignedIn(requestMeta("/cuenta"), null)).toBe(false);
    expect(await headerSignedIn(requestMeta("/cuenta", { cookie: "forja.session_token=caducada.firma-falsa" }), null)).toBe(false);
  });
});
