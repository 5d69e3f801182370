import { describe, expect, it, vi } from "vitest";

// The server guards with real sessions: a guest, a customer and a staff member, each a real
// better-auth session on the test database.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("guards"));

import { failureText, registeredCustomer, requestMeta, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { signInStaff } from "./sign-in.server";
import { upsertStaffAccount } from "./staff-account.server";
import { ADMIN_SIGNIN_COOKIE, adminSignInCookie, consumedAdminSignIn, requireStaff, requireStaffApi, requireUser, signedInHeaders } from "./guards.server";
import { hasSessionHint, SESSION_HINT_COOKIE } from "~/lib/session-hint";

let customerCookie = "";
let staffCookie = "";

useTestFileDatabase(dataDir, async () => {
  customerCookie = (await registeredCustomer("Cliente Guardia", `cliente-guardia-${process.pid}@ejemplo.mx`, "Guardia-Cliente-1")).cookie;
  staffCookie = await signedInStaffCookie(`personal-guardia-${process.pid}@forja.mx`, "Guardia-Personal-2", "Personal Guardia");
});

/** Runs a guard and returns what it threw (a Response) or resolved to. */
async function outcome<T>(run: () => Promise<T>): Promise<{ thrown: Response } | { value: T }> {
  try {
    return { value: await run() };
  } catch (error) {
    if (error instanceof Response) return { thrown: error };
    throw error;
  }
}

async function redirectOf(run: () => Promise<unknown>): Promise<{ status: number; location: string; cookies: string[] }> {
  const result = await outcome(run);
  if (!("thrown" in result)) throw new Error("expected a redirect");
  return { status: result.thrown.status, location: result.thrown.headers.get("location") ?? "", cookies: result.thrown.headers.getSetCookie() };
}

const who = {
  guest: () => "",
  customer: () => customerCookie,
  staff: () => staffCookie,
  "stale cookie": () => "forja.session_token=caducada.firma-falsa",
};

describe("requireUser", () => {
  it.each([
    ["/quotes", "/quotes"],
    ["/quotes/abc-123?vista=detalle", "/quotes/abc-123?vista=detalle"],
    ["/quotes.data?_routes=routes%2Fquotes", "/quotes"],
    ["/quotes/abc-123.data?_routes=routes%2Fquotes.%24id&vista=1", "/quotes/abc-123?vista=1"],
    ["/cuenta.data", "/cuenta"],
    ["/_.data?_routes=root", "/"],
  ])("sends a guest on %s to /login?redirectTo=%s and clears the session hint", async (path, page) => {
    const { status, location, cookies } = await redirectOf(() => requireUser(requestMeta(path)));
    expect(status).toBe(302);
    expect(location).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    expect(new URL(location, "http://localhost").searchParams.get("redirectTo")).toBe(page);
    expect(location).not.toContain(".data");
    expect(location).not.toContain("_routes");
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/`));
  });

  it("treats an invalid session cookie like a guest", async () => {
    const { location } = await redirectOf(() => requireUser(requestMeta("/quotes", { cookie: who["stale cookie"]() })));
    expect(location).toBe("/login?redirectTo=%2Fquotes");
  });

  it.each(["customer", "staff"] as const)("lets a %s through with their user", async (kind) => {
    const result = await outcome(() => requireUser(requestMeta("/quotes", { cookie: who[kind]() })));
    expect("value" in result && result.value.role).toBe(kind === "staff" ? "admin" : "customer");
  });
});

describe("requireStaff", () => {
  it.each(["guest", "customer", "stale cookie"] as const)("sends a %s to /admin/login?redirectTo=<page>", async (kind) => {
    const { status, location } = await redirectOf(() => requireStaff(requestMeta("/admin/clientes?q=ana", { cookie: who[kind]() })));
    expect(status).toBe(302);
    expect(location).toBe(`/admin/login?redirectTo=${encodeURIComponent("/admin/clientes?q=ana")}`);
  });

  it("names the page, not the .data URL, on client navigations", async () => {
    const { location } = await redirectOf(() => requireStaff(requestMeta("/admin/clientes.data?page=2&_routes=routes%2Fadmin.clientes", { cookie: customerCookie })));
    expect(location).toBe(`/admin/login?redirectTo=${encodeURIComponent("/admin/clientes?page=2")}`);
  });

  it("lets staff through", async () => {
    const result = await outcome(() => requireStaff(requestMeta("/admin", { cookie: staffCookie })));
    expect("value" in result && result.value.role).toBe("admin");
  });
});

describe("requireStaffApi", () => {
  it.each([
    ["guest", 401, "Inicie sesión para continuar."],
    ["stale cookie", 401, "Inicie sesión para continuar."],
    ["customer", 403, "Esta cuenta no tiene acceso al panel de administración."],
  ] as const)("answers a %s with %i JSON", async (kind, status, message) => {
    const result = await outcome(() => requireStaffApi(requestMeta("/api/admin/clientes", { cookie: who[kind]() })));
    if (!("thrown" in result)) throw new Error("expected a Response");
    expect(result.thrown.status).toBe(status);
    expect(result.thrown.headers.get("content-type")).toMatch(/^application\/json/);
    expect(result.thrown.headers.get("location")).toBeNull();
    expect(await result.thrown.json()).toEqual({ code: status, message });
  });

  it("lets staff through", async () => {
    const result = await outcome(() => requireStaffApi(requestMeta("/api/admin/clientes", { cookie: staffCookie })));
    expect("value" in result && result.value.role).toBe("admin");
  });

  it("accepts a staff bearer token", async () => {
    const email = `personal-bearer-${process.pid}@forja.mx`;
    await upsertStaffAccount({ email, password: "Guardia-Bearer-3", name: "Personal Bearer" });
    const staff = await signInStaff(requestMeta("/admin/login", { ip: "10.9.0.3" }), { email, password: "Guardia-Bearer-3" });
    if (!staff.ok) throw new Error(failureText(staff));
    const token = staff.value.headers.get("set-auth-token");
    const result = await outcome(() => requireStaffApi(requestMeta("/api/admin/clientes", { authorization: `Bearer ${token}` })));
    expect("value" in result && result.value.email).toBe(email);
  });
});

describe("cookie helpers", () => {
  it("adds the readable session hint after better-auth's cookies, all under 4096 bytes", () => {
    const auth = new Headers();
    auth.append("Set-Cookie", "forja.session_token=abc.def; Path=/; HttpOnly; SameSite=Lax");
    const lines = signedInHeaders(auth).getSetCookie();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^forja\.session_token=/);
    expect(lines[1]).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=1; Max-Age=2592000; Path=/; SameSite=Lax$`));
    expect(lines[1]).not.toMatch(/HttpOnly/);
    expect(signedInHeaders(new Headers(), false).getSetCookie()).toEqual([`${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`]);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(4096);
  });

  it("recognises the hint only when set", () => {
    expect(hasSessionHint(`a=1; ${SESSION_HINT_COOKIE}=1`)).toBe(true);
    expect(hasSessionHint(`${SESSION_HINT_COOKIE}=`)).toBe(false);
    expect(hasSessionHint(`x${SESSION_HINT_COOKIE}=1`)).toBe(false);
    expect(hasSessionHint("")).toBe(false);
  });

  it("sets and reads the one-minute admin sign-in cookie", () => {
    expect(adminSignInCookie()).toBe(`${ADMIN_SIGNIN_COOKIE}=1; Max-Age=60; Path=/; HttpOnly; SameSite=Lax`);
    expect(adminSignInCookie(false)).toBe(`${ADMIN_SIGNIN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`);
    const withCookie = new Request("http://localhost/admin", { headers: { cookie: `a=b; ${ADMIN_SIGNIN_COOKIE}=1` } });
    expect(consumedAdminSignIn(withCookie)).toBe(true);
    expect(consumedAdminSignIn(new Request("http://localhost/admin"))).toBe(false);
    expect(consumedAdminSignIn(new Request("http://localhost/admin", { headers: { cookie: `${ADMIN_SIGNIN_COOKIE}=0` } }))).toBe(false);
  });
});
