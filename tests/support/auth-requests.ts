import { registerCustomer, signInStaff, upsertStaffAccount } from "~/features/accounts/accounts.server";
import type { RequestMeta } from "~/lib/request-meta";

// Small helpers for integration tests of the account functions: build the RequestMeta a route
// would pass (a real Request with the browser's cookie), and turn Set-Cookie lines into a Cookie
// header the way a browser would.

let ipCounter = 0;

/** A fresh loopback-looking client IP per call, so rate-limited screens do not share counters. */
export function nextTestIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function requestMeta(path = "/", options: { cookie?: string; authorization?: string; ip?: string; method?: string; headers?: Record<string, string> } = {},
): RequestMeta {
  const headers: Record<string, string> = { "user-agent": "vitest", ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.authorization) headers.authorization = options.authorization;
  return {
    request: new Request(`http://localhost${path}`, { method: options.method ?? "GET", headers }),
    ip: options.ip ?? "127.0.0.1",
  };
}

/** The `name=value` pairs a browser would send back for these Set-Cookie lines (expired ones dropped). */
export function cookieHeaderFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .filter((line) => !/;\s*max-age=0\b/i.test(line) && !/^[^=]+=;/.test(line))
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Creates (or updates) a staff account and signs it in at /admin/login; the Cookie header of its session. */
export async function signedInStaffCookie(email: string, password = "Panel-Forja-Seguro-1", name = "Personal Forja"): Promise<string> {
  await upsertStaffAccount({ email, password, name });
  const staff = await signInStaff(requestMeta("/admin/login", { ip: nextTestIp(), method: "POST" }), { email, password });
  if (!staff.ok) throw new Error(staff.message);
  return cookieHeaderFrom(staff.headers);
}

/** Registers a customer as /registro does; its id and the Cookie header of its session. */
export async function registeredCustomer(name: string, email: string, password = "Fresadora-CNC-42"): Promise<{ id: string; cookie: string }> {
  const customer = await registerCustomer(requestMeta("/registro", { ip: nextTestIp(), method: "POST" }), { name, email, password });
  if (!customer.ok) throw new Error(customer.message);
  return { id: customer.value.id, cookie: cookieHeaderFrom(customer.headers) };
}
