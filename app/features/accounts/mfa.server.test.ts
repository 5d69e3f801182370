import { describe, expect, it, vi } from "vitest";

// The one-step doors refuse an admin who owes the second step (docs/decisions/0061): better-auth's
// own POST /api/sesion/sign-in/email and /login's email and password open no session for them, while
// /admin/login's two steps still do and an exempt admin (the test fixtures') keeps one step.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-mfa"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { failureMessages } from "~/lib/result";
import { cookieHeaderFrom, exemptStaffFromMfa, nextTestIp, outboxFor, registerTestCustomer, requestMeta, sessionCount, SESSION_COOKIE, TEST_PASSWORD, uniqueEmail, whoIs } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { handleAuthRequest } from "./auth-api.server";
import { beginStaffSignIn, finishStaffSignIn, STAFF_CODE_REFUSED } from "./code-sign-in.server";
import { signInOneStep, TWO_STEP_REQUIRED } from "./mfa.server";
import { upsertStaffAccount } from "./staff-account.server";

useTestFileDatabase(dataDir);

const STAFF_PASSWORD = "Panel-Forja-Seguro-1";

async function newAdmin(label: string): Promise<{ id: string; email: string }> {
  const email = uniqueEmail(label);
  await upsertStaffAccount({ email, password: STAFF_PASSWORD, name: "Administradora de Pruebas" });
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  return { id: row!.id, email };
}

function apiSignIn(body: object, ip = nextTestIp()) {
  return handleAuthRequest(
    new Request("http://localhost/api/sesion/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify(body),
    }),
    ip,
  );
}

describe("one-step doors and admins who owe a second step", () => {
  it("POST /api/sesion/sign-in/email: an admin's right password gets a 403 in better-auth's shape, no session, no token", async () => {
    const admin = await newAdmin("mfa-api");
    const refused = await apiSignIn({ email: admin.email, password: STAFF_PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: "TWO_STEP_SIGN_IN_REQUIRED", message: TWO_STEP_REQUIRED });
    expect(TWO_STEP_REQUIRED).toContain("/admin/login");
    expect(refused.headers.get("set-auth-token")).toBeNull();
    expect(refused.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(await sessionCount(admin.id)).toBe(0);

    // A wrong password is still better-auth's own 401, so the 403 says only what a right password says.
    const wrong = await apiSignIn({ email: admin.email, password: "No-Es-La-Clave-1" });
    expect(wrong.status).toBe(401);
  });

  it("the same endpoint still signs in a customer and an exempt admin", async () => {
    const { email } = await registerTestCustomer("mfa-cliente");
    const customer = await apiSignIn({ email, password: TEST_PASSWORD });
    expect(customer.status).toBe(200);
    expect(customer.headers.get("set-auth-token")).toBeTruthy();

    const admin = await newAdmin("mfa-exenta");
    await exemptStaffFromMfa(admin.email);
    const exempt = await apiSignIn({ email: admin.email, password: STAFF_PASSWORD });
    expect(exempt.status).toBe(200);
    expect(exempt.headers.get("set-auth-token")).toBeTruthy();
    expect(await sessionCount(admin.id)).toBe(1);
  });

  it("/login's email and password refuse an admin in Spanish and keep no session; /admin/login's two steps sign in", async () => {
    const admin = await newAdmin("mfa-login");
    const refused = await signInOneStep(requestMeta("/login", { ip: nextTestIp(), method: "POST" }), { email: admin.email, password: STAFF_PASSWORD });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(failureMessages(refused).formErrors).toEqual([TWO_STEP_REQUIRED]);
    expect(await sessionCount(admin.id)).toBe(0);

    const meta = requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" });
    const first = await beginStaffSignIn(meta, { email: admin.email, password: STAFF_PASSWORD });
    expect(first.ok && first.value.step).toBe("code");
    if (!first.ok || first.value.step !== "code") return;
    expect(await sessionCount(admin.id)).toBe(0);
    const [mail] = await outboxFor(admin.email);
    const code = /\b(\d{8})\b/.exec(mail?.text ?? "")?.[1];
    expect(code, "the code was mailed").toBeDefined();
    // A wrong code is refused with the way to a new one that this screen offers: «Empezar de nuevo».
    const wrong = await finishStaffSignIn(meta, { mfaId: first.value.mfaId, otpId: first.value.otpId, code: code === "00000000" ? "11111111" : "00000000" });
    expect(wrong).toEqual({ ok: false, kind: "invalid", fieldErrors: { code: [STAFF_CODE_REFUSED] }, formErrors: [] });
    expect(STAFF_CODE_REFUSED).toContain("«Empezar de nuevo»");
    expect(await sessionCount(admin.id)).toBe(0);
    const second = await finishStaffSignIn(meta, { mfaId: first.value.mfaId, otpId: first.value.otpId, code: code! });
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect((await whoIs(cookieHeaderFrom(second.value)))?.id).toBe(admin.id);
  });
});
