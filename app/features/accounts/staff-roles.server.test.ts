import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

// The staff roles (docs/decisions/0040) with real accounts and sessions on the test database: the
// permission table, the page guard, the record API's gate, invitations, role changes and
// deactivation.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("staff-roles"));

import { nextTestIp, outboxFor, registeredCustomer, requestMeta, signedInStaff, tokenFromMail, whoIs } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { recordCollections } from "~/services/records/registry.server";
import { WRITE_MESSAGES } from "~/services/records/writes.server";
import { findApiSession } from "./api-sessions.server";
import { findBrowserApiSession } from "./browser-api-session.server";
import { requireStaffArea, requireStaffApiArea, STAFF_AREA_REFUSED } from "./guards.server";
import { resetPassword } from "./password.server";
import { signInStaff } from "./sign-in.server";
import { findStaffInvitation, inviteStaff, listStaff, resendStaffInvitation, setStaffActive, setStaffRole } from "./staff-members.server";
import { STAFF_AREAS, STAFF_ROLES, staffAreasOf, staffMayUse, type StaffArea, type StaffRole } from "./staff-roles";
import type { SessionUser } from "./accounts.server";

const PASSWORD = "Roles-Personal-Forja-9";
let admin: { user: SessionUser; cookie: string };
const staff = {} as Record<StaffRole, { user: SessionUser; cookie: string }>;
let customer: { id: string; cookie: string };

useTestFileDatabase(dataDir, async () => {
  admin = await signedInStaff(`admin-roles-${process.pid}@forja.mx`, PASSWORD, "Admin Roles");
  staff.admin = admin;
  for (const role of ["editor", "ventas"] as const) {
    const created = await signedInStaff(`${role}-roles-${process.pid}@forja.mx`, PASSWORD, `Persona ${role}`);
    const changed = await setStaffRole({ actor: admin.user, userId: created.user.id, role });
    expect(changed.ok).toBe(true);
    staff[role] = { user: { ...created.user, role }, cookie: created.cookie };
  }
  customer = await registeredCustomer("Cliente Roles", `cliente-roles-${process.pid}@ejemplo.mx`, PASSWORD);
});

/** What a guard threw: a redirect or error Response, or react-router's data(…, {status}). */
async function thrownBy(run: () => Promise<unknown>): Promise<{ status: number; location?: string; body?: unknown }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get("location") ?? undefined, body: await error.clone().json().catch(() => undefined) };
    const withInit = error as { init?: { status?: number }; data?: unknown };
    if (withInit.init?.status) return { status: withInit.init.status, body: withInit.data };
    throw error;
  }
  return { status: 200 };
}

describe("the permission table", () => {
  it("gives admins every area, editors content only, sales the commercial areas", () => {
    expect(staffAreasOf("admin")).toEqual(STAFF_AREAS);
    expect(staffAreasOf("editor")).toEqual(["contenido"]);
    expect([...staffAreasOf("ventas")].sort()).toEqual(["clientes", "cotizaciones", "pedidos", "productos", "solicitudes"]);
    for (const area of ["ajustes", "personal", "sistema"] as const) {
      expect(STAFF_ROLES.filter((role) => staffMayUse(role, area))).toEqual(["admin"]);
    }
  });

  it("gives a customer, an unknown role or no role nothing", () => {
    for (const area of STAFF_AREAS) {
      expect(staffMayUse("customer", area)).toBe(false);
      expect(staffMayUse("superadmin", area)).toBe(false);
      expect(staffMayUse(undefined, area)).toBe(false);
    }
  });
});

describe("requireStaffArea", () => {
  const cases: [StaffRole, StaffArea, number][] = [
    ["admin", "personal", 200],
    ["admin", "cotizaciones", 200],
    ["editor", "contenido", 200],
    ["editor", "cotizaciones", 403],
    ["editor", "personal", 403],
    ["editor", "solicitudes", 403],
    ["ventas", "cotizaciones", 200],
    ["ventas", "clientes", 200],
    ["ventas", "personal", 403],
    ["ventas", "contenido", 403],
    ["ventas", "ajustes", 403],
  ];
  it.each(cases)("%s on %s answers %i", async (role, area, status) => {
    const outcome = await thrownBy(() => requireStaffArea(requestMeta("/admin/x", { cookie: staff[role].cookie }), area));
    expect(outcome.status).toBe(status);
    if (status === 403) expect(outcome.body).toMatchObject({ statusCode: 403, statusMessage: "Forbidden", message: STAFF_AREA_REFUSED });
  });

  it("sends a guest and a customer to the staff login", async () => {
    for (const cookie of ["", customer.cookie]) {
      const outcome = await thrownBy(() => requireStaffArea(requestMeta("/admin/personal", { cookie }), "personal"));
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/admin/login?redirectTo=%2Fadmin%2Fpersonal");
    }
  });

  it("answers staff APIs in JSON: 401, 403 for a customer or a role without the area", async () => {
    expect((await thrownBy(() => requireStaffApiArea(requestMeta("/api/x"), "personal"))).status).toBe(401);
    expect((await thrownBy(() => requireStaffApiArea(requestMeta("/api/x", { cookie: customer.cookie }), "personal"))).status).toBe(403);
    const refused = await thrownBy(() => requireStaffApiArea(requestMeta("/api/x", { cookie: staff.ventas.cookie }), "personal"));
    expect(refused).toMatchObject({ status: 403, body: { code: 403, message: STAFF_AREA_REFUSED } });
    expect((await thrownBy(() => requireStaffApiArea(requestMeta("/api/x", { cookie: staff.admin.cookie }), "personal"))).status).toBe(200);
  });
});

describe("the record API's gate", () => {
  const collection = (name: string) => recordCollections().find((item) => item.name === name)!;
  const auth = (role: StaffRole) => ({ collection: "_superusers" as const, id: staff[role].user.id });
  const everything = { where: undefined, orderBy: [sql`1`], limit: 50, offset: 0 };

  it("lets roles with the area see customers and others read them as a guest (nothing)", async () => {
    const users = collection("users");
    expect(await users.count({ where: undefined, auth: auth("admin") })).toBeGreaterThan(0);
    expect(await users.count({ where: undefined, auth: auth("ventas") })).toBeGreaterThan(0);
    expect(await users.count({ where: undefined, auth: auth("editor") })).toBe(0);
    expect(await users.list({ ...everything, auth: auth("editor") })).toEqual([]);
    expect(await users.view(customer.id, auth("editor"))).toBeNull();
    expect((await users.view(customer.id, auth("ventas")))?.id).toBe(customer.id);
  });

  it("sends realtime events only to roles with the area", async () => {
    const access = await collection("users").events!.whoMayView({ id: customer.id }, [auth("admin"), auth("editor"), auth("ventas")], false);
    expect(access.auths).toEqual([true, false, true]);
  });

  it("refuses writes from a role without the area with PocketBase's 403", async () => {
    const productos = collection("productos");
    const refused = await productos.create!({ data: { nombre: "Prueba" }, files: {} }, { auth: auth("editor"), name: "Persona editor" });
    expect(refused).toMatchObject({ ok: false, kind: "forbidden", message: WRITE_MESSAGES.notAllowed });
    const checked = await productos.create!({ data: {}, files: {} }, { auth: auth("ventas"), name: "Persona ventas" });
    // Sales may write products: the product's own validation answers, not the gate.
    expect(checked.ok === false && checked.kind).toBe("invalid");
  });

  it("applies a role change to a token already handed out", async () => {
    const target = await signedInStaff(`cambio-roles-${process.pid}@forja.mx`, PASSWORD, "Persona Cambio");
    const users = collection("users");
    const who = { collection: "_superusers" as const, id: target.user.id };
    expect(await users.count({ where: undefined, auth: who })).toBeGreaterThan(0);
    expect((await setStaffRole({ actor: admin.user, userId: target.user.id, role: "editor" })).ok).toBe(true);
    expect(await users.count({ where: undefined, auth: who })).toBe(0);
  });
});

describe("staff accounts", () => {
  it("invites by email: a one-time link sets the password and the invitee signs in with the role", async () => {
    const email = `invitada-${process.pid}@forja.mx`;
    const invited = await inviteStaff({ actor: admin.user, name: "Invitada Editora", email: email.toUpperCase(), role: "editor" });
    expect(invited.ok).toBe(true);
    expect((await listStaff()).find((member) => member.email === email)).toMatchObject({ role: "editor", state: "invitada", lastSignInAt: null });

    const [mail] = await outboxFor(email);
    expect(mail.subject).toBe("Invitación al panel de Forja");
    const token = tokenFromMail(mail, "/admin/bienvenida");
    expect(await findStaffInvitation(token)).toEqual({ name: "Invitada Editora", email });
    // No password yet: nobody can sign in with the account.
    expect((await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email, password: PASSWORD })).ok).toBe(false);

    const reset = await resetPassword(requestMeta("/admin/bienvenida", { ip: nextTestIp(), method: "POST" }), { token, password: PASSWORD });
    expect(reset.ok && reset.value.user.role).toBe("editor");
    expect(await findStaffInvitation(token)).toBeNull();
    const again = await resetPassword(requestMeta("/admin/bienvenida", { ip: nextTestIp(), method: "POST" }), { token, password: "Otra-Clave-Larga-77" });
    expect(again.ok).toBe(false);
    expect((await listStaff()).find((member) => member.email === email)?.state).toBe("activa");
  });

  it("refuses an email that already has an account, and anyone but an admin", async () => {
    const taken = await inviteStaff({ actor: admin.user, name: "Otra Persona", email: staff.ventas.user.email, role: "ventas" });
    expect(taken.ok === false && taken.kind === "invalid" && taken.fieldErrors.email).toEqual(["Esa persona ya forma parte del personal. Búsquela en la lista."]);
    const customerEmail = `cliente-roles-${process.pid}@ejemplo.mx`;
    const customerTaken = await inviteStaff({ actor: admin.user, name: "Otra Persona", email: customerEmail, role: "ventas" });
    expect(customerTaken.ok === false && customerTaken.kind === "invalid" && customerTaken.fieldErrors.email?.[0]).toMatch(/cuenta de cliente/);
    for (const role of ["editor", "ventas"] as const) {
      const refused = await inviteStaff({ actor: staff[role].user, name: "Colado", email: `colado-${role}-${process.pid}@forja.mx`, role: "admin" });
      expect(refused).toMatchObject({ ok: false, kind: "forbidden" });
      expect(await setStaffRole({ actor: staff[role].user, userId: staff[role].user.id, role: "admin" })).toMatchObject({ ok: false, kind: "forbidden" });
    }
  });

  it("a resent invitation replaces the earlier link", async () => {
    const email = `reenvio-${process.pid}@forja.mx`;
    const invited = await inviteStaff({ actor: admin.user, name: "Persona Reenvío", email, role: "ventas" });
    expect(invited.ok).toBe(true);
    const first = tokenFromMail((await outboxFor(email))[0], "/admin/bienvenida");
    const resent = await resendStaffInvitation({ actor: admin.user, userId: invited.ok ? invited.value.id : "" });
    expect(resent.ok).toBe(true);
    const second = tokenFromMail((await outboxFor(email))[0], "/admin/bienvenida");
    expect(second).not.toBe(first);
    expect(await findStaffInvitation(first)).toBeNull();
    expect(await findStaffInvitation(second)).not.toBeNull();
  });

  it("never leaves the panel without an active admin", async () => {
    const lone = await signedInStaff(`unica-admin-${process.pid}@forja.mx`, PASSWORD, "Única Admin");
    // Every other admin of this file is demoted first, so `lone` is the last one.
    const others = (await listStaff()).filter((member) => member.role === "admin" && member.state === "activa" && member.id !== lone.user.id);
    for (const other of others) expect((await setStaffRole({ actor: lone.user, userId: other.id, role: "ventas" })).ok).toBe(true);
    const demote = await setStaffRole({ actor: lone.user, userId: lone.user.id, role: "editor" });
    expect(demote).toMatchObject({ ok: false, kind: "conflict" });
    expect(await setStaffActive({ actor: lone.user, userId: lone.user.id, active: false })).toMatchObject({ ok: false, kind: "conflict" });
    expect((await whoIs(lone.cookie))?.role).toBe("admin");
    // With a second active admin, stepping down is allowed.
    expect((await setStaffRole({ actor: lone.user, userId: others[0]!.id, role: "admin" })).ok).toBe(true);
    expect((await setStaffRole({ actor: lone.user, userId: lone.user.id, role: "ventas" })).ok).toBe(true);
    expect((await whoIs(lone.cookie))?.role).toBe("ventas");
    for (const other of others.slice(1)) expect((await setStaffRole({ actor: admin.user, userId: other.id, role: "admin" })).ok).toBe(true);
  });

  it("deactivating ends the sessions and tokens at once; reactivating lets the person sign in again", async () => {
    const target = await signedInStaff(`baja-${process.pid}@forja.mx`, PASSWORD, "Persona Baja");
    const actor = (await whoIs(admin.cookie))!;
    const [sessionRow] = (await listStaff()).filter((member) => member.id === target.user.id);
    expect(sessionRow?.lastSignInAt).toBeInstanceOf(Date);
    const browser = await findBrowserApiSession(requestMeta("/cuenta/tiempo-real", { cookie: target.cookie }));
    expect(browser?.kind).toBe("staff");

    expect((await setStaffActive({ actor, userId: target.user.id, active: false })).ok).toBe(true);
    expect(await whoIs(target.cookie)).toBeNull();
    expect(await findApiSession({ userId: target.user.id, sessionId: browser!.sessionId, kind: "staff" })).toBeNull();
    expect((await listStaff()).find((member) => member.id === target.user.id)).toMatchObject({ state: "desactivada", lastSignInAt: null });
    const blocked = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email: target.user.email, password: PASSWORD });
    expect(blocked.ok).toBe(false);

    expect((await setStaffActive({ actor, userId: target.user.id, active: true })).ok).toBe(true);
    const back = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email: target.user.email, password: PASSWORD });
    expect(back.ok).toBe(true);
  });
});
