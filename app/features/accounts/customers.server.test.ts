import { beforeAll, describe, expect, it, vi } from "vitest";

// Integration tests of the staff's customer list and blocking.
// The accounts kit: environment (set before the app reads it) in tests/support/feature-test-env,
// database in tests/support/test-file-database, sign-in helpers in tests/support/auth-requests.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/feature-test-env")).isolateAccountsTestEnv("accounts-customers"));

import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { invalid, notFoundResult } from "~/lib/result";
import {
  nextTestIp,
  registerTestCustomer as register,
  requestMeta,
  sessionCount,
  signedInStaff,
  signInTestCustomer as login,
  TEST_PASSWORD as PASSWORD,
  whoIs,
} from "../../../tests/support/auth-requests";
import type { SessionUser } from "./accounts.server";
import { CUSTOMERS_PAGE_SIZE, listCustomers, setCustomerBlocked } from "./customers.server";
import { signIn } from "./sign-in.server";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";

useTestFileDatabase(dataDir);

const STAFF_EMAIL = `personal-${process.pid}@forja.mx`;
let staffUser: SessionUser | null = null;

/** The staff member who blocks and unblocks in these tests, signed in once. */
async function staff(): Promise<SessionUser> {
  staffUser ??= (await signedInStaff(STAFF_EMAIL)).user;
  return staffUser;
}

describe("setCustomerBlocked", () => {
  it("refuses a blocked customer and ends their sessions; after unblocking they can sign in again", async () => {
    const { email, user: customer, cookie: registerCookie } = await register("bloqueo");
    const { cookie: secondCookie } = await login(email);
    expect(await whoIs(registerCookie)).not.toBeNull();
    expect(await sessionCount(customer.id)).toBe(2);

    const actor = await staff();
    expect(await setCustomerBlocked({ actor, userId: customer.id, blocked: true })).toMatchObject({ ok: true });
    expect(await whoIs(registerCookie)).toBeNull();
    expect(await whoIs(secondCookie)).toBeNull();
    expect(await sessionCount(customer.id)).toBe(0);

    const refused = await signIn(requestMeta("/login", { ip: nextTestIp() }), { email, password: PASSWORD });
    expect(refused.ok).toBe(false);
    expect(refused).toEqual(invalid("Esta cuenta está bloqueada. Escríbanos si cree que es un error."));
    expect(await sessionCount(customer.id)).toBe(0);
    const [listed] = (await listCustomers({ search: email, page: 1 })).rows;
    expect(listed).toMatchObject({ id: customer.id, banned: true });

    expect(await setCustomerBlocked({ actor, userId: customer.id, blocked: false })).toMatchObject({ ok: true });
    const { cookie } = await login(email);
    expect((await whoIs(cookie))?.id).toBe(customer.id);
    expect((await listCustomers({ search: email, page: 1 })).rows[0].banned).toBe(false);
  });

  it("does not let a customer block anyone, nor staff block staff or unknown ids", async () => {
    const victim = await register("victima");
    const attacker = await register("atacante");
    const byCustomer = await setCustomerBlocked({ actor: (await whoIs(attacker.cookie))!, userId: victim.user.id, blocked: true });
    expect(byCustomer.ok).toBe(false);
    expect(await whoIs(victim.cookie)).not.toBeNull();

    const actor = await staff();
    const [staffRow] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, STAFF_EMAIL));
    expect(await setCustomerBlocked({ actor, userId: staffRow.id, blocked: true })).toEqual(notFoundResult("No encontramos ese cliente."));
    expect(await setCustomerBlocked({ actor, userId: "no-existe", blocked: true })).toEqual(notFoundResult("No encontramos ese cliente."));
  });
});

describe("listCustomers", () => {
  const tag = `lista${process.pid}`;

  beforeAll(async () => {
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 35 }, (_, index) => ({
      id: `${tag}-${String(index).padStart(2, "0")}`,
      name: index === 7 ? `Marisol Ñandú ${tag}` : `Cliente ${index} ${tag}`,
      email: `${tag}-${index}@lista.mx`,
      company: index === 3 ? `Aceros Tornado ${tag}` : null,
      emailVerified: index % 2 === 0,
      createdAt: new Date(base + index * 60_000),
      updatedAt: new Date(base + index * 60_000),
    }));
    await getDb().insert(user).values(rows);
    await getDb().insert(user).values({ id: `${tag}-staff`, name: `Personal ${tag}`, email: `${tag}-staff@lista.mx`, role: "admin" });
  });

  it("pages by 30, newest first, customers only", async () => {
    const first = await listCustomers({ search: tag, page: 1 });
    expect(CUSTOMERS_PAGE_SIZE).toBe(30);
    expect(first.total).toBe(35);
    expect(first.rows).toHaveLength(30);
    expect(first.rows[0].id).toBe(`${tag}-34`);
    expect(first.rows[29].id).toBe(`${tag}-05`);
    const second = await listCustomers({ search: tag, page: 2 });
    expect(second.total).toBe(35);
    expect(second.rows.map((row) => row.id)).toEqual([`${tag}-04`, `${tag}-03`, `${tag}-02`, `${tag}-01`, `${tag}-00`]);
    expect((await listCustomers({ search: tag, page: 3 })).rows).toEqual([]);
    expect([...first.rows, ...second.rows].some((row) => row.id.endsWith("-staff"))).toBe(false);
    expect(second.rows.find((row) => row.id === `${tag}-04`)).toMatchObject({ emailVerified: true, banned: false, company: null });
    expect(second.rows[0].createdAt).toBeInstanceOf(Date);
  });

  it("treats a page below 1 as the first page", async () => {
    expect((await listCustomers({ search: tag, page: 0 })).rows[0].id).toBe(`${tag}-34`);
    expect((await listCustomers({ search: tag, page: -3 })).rows).toHaveLength(30);
  });

  it("searches email, name and company case-insensitively", async () => {
    expect((await listCustomers({ search: `${tag}-12@LISTA`, page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-12`]);
    expect((await listCustomers({ search: "marisol ñandú", page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-07`]);
    expect((await listCustomers({ search: `  TORNADO ${tag.toUpperCase()} `, page: 1 })).rows.map((row) => row.id)).toEqual([`${tag}-03`]);
    expect(await listCustomers({ search: `Personal ${tag}`, page: 1 })).toEqual({ rows: [], total: 0 });
  });

  it("lists everyone (customers only) without a search", async () => {
    const all = await listCustomers({ page: 1 });
    expect(all.total).toBeGreaterThanOrEqual(35);
    expect(all.rows.length).toBe(30);
  });

  // BUG (reported): listCustomers passes the search text into ILIKE '%…%' unescaped, so "%" and
  // "_" act as wildcards and match every customer. Remove `.fails` once the pattern is escaped.
  it("treats LIKE wildcards in the search as literal text", async () => {
    // "%" and "_" typed into the search box must not match everything.
    expect((await listCustomers({ search: "%", page: 1 })).total).toBe(0);
    expect((await listCustomers({ search: "_", page: 1 })).total).toBe(0);
  });
});
