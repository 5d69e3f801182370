import { createHmac, timingSafeEqual } from "node:crypto";
import { getSessionUser, type SessionUser } from "~/features/accounts/index.server";
import { getEnv } from "~/lib/env.server";
import type { RequestMeta } from "~/lib/request-meta";
import { ok, type Result } from "~/lib/result";
import { getAuthSecret } from "~/services/security/secret.server";
import { isGuestCartToken, startGuestCart, type CartOwner } from "./cart.server";
import { mergeGuestCart } from "./cart-merge.server";
import type { OrderViewer } from "./customer-orders.server";

// The orders feature's HTTP adapter: the one file that turns cookies and the session into typed
// owners and viewers (a CartOwner, an OrderViewer) and back into Set-Cookie lines. Only routes
// import it; no domain module of the feature does.
//
// Cookies: the guest cart's token (httpOnly; only its sha256 is stored), a script-readable hint
// that says "this browser has a guest cart" (so the header knows to ask for the count), a short
// flash with the outcome of the last cart action (post → redirect → get), and the signed list of
// guest orders this browser placed.

export const GUEST_CART_COOKIE = "forja_carrito";
/** Readable by scripts; says only "this browser has a guest cart", so the header knows to ask for the count. */
export const CART_HINT_COOKIE = "forja_carrito_hint";
const FLASH_COOKIE = "forja_carrito_aviso";
const GUEST_CART_MAX_AGE = 60 * 60 * 24 * 30;

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(/;\s*/)) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index) === name) return part.slice(index + 1);
  }
  return null;
}

function cookieAttributes(maxAge: number, httpOnly: boolean): string {
  return `Max-Age=${maxAge}; Path=/; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}${getEnv().secureCookies ? "; Secure" : ""}`;
}

function setGuestCookies(headers: Headers, token: string): void {
  headers.append("Set-Cookie", `${GUEST_CART_COOKIE}=${token}; ${cookieAttributes(GUEST_CART_MAX_AGE, true)}`);
  headers.append("Set-Cookie", `${CART_HINT_COOKIE}=1; ${cookieAttributes(GUEST_CART_MAX_AGE, false)}`);
}

function clearGuestCookies(headers: Headers): void {
  headers.append("Set-Cookie", `${GUEST_CART_COOKIE}=; ${cookieAttributes(0, true)}`);
  headers.append("Set-Cookie", `${CART_HINT_COOKIE}=; ${cookieAttributes(0, false)}`);
}

export interface CartSession {
  /** null: a guest without a cart (reading never creates one). */
  owner: CartOwner | null;
  user: SessionUser | null;
  /** Set-Cookie lines to send back (a new guest cookie, or clearing it after a merge). */
  headers: Headers;
  /** What the merge changed, to show once. */
  notices: string[];
}

/**
 * Who owns the cart of this request; merges a guest cart into the account's when a signed-in
 * request still carries the guest cookie. With `create`, a guest without a cart gets a new token
 * (refused, "limited", when this IP made too many lately).
 */
export async function resolveCartOwner(meta: RequestMeta, options: { create?: boolean } = {}): Promise<Result<CartSession>> {
  const headers = new Headers();
  const user = await getSessionUser(meta);
  const cookie = readCookie(meta.request, GUEST_CART_COOKIE);
  const token = isGuestCartToken(cookie) ? cookie : null;
  if (user) {
    const merged = token ? await mergeGuestCart({ guestToken: token, userId: user.id }) : ok([]);
    if (cookie !== null) clearGuestCookies(headers);
    return ok({ owner: { kind: "user", userId: user.id }, user, headers, notices: merged.ok ? merged.value : [] });
  }
  if (token) return ok({ owner: { kind: "guest", token }, user: null, headers, notices: [] });
  if (!options.create) return ok({ owner: null, user: null, headers, notices: [] });
  const started = await startGuestCart(meta.ip);
  if (!started.ok) return started;
  setGuestCookies(headers, started.value.token);
  return ok({ owner: started.value, user: null, headers, notices: [] });
}

/** The same, for reading: never creates a cart, so it never fails. */
export async function readCartSession(meta: RequestMeta): Promise<CartSession> {
  const resolved = await resolveCartOwner(meta);
  if (!resolved.ok) throw new Error("unreachable: reading never creates a cart");
  return resolved.value;
}

export interface CartNotice {
  ok: boolean;
  message: string;
}

/** The outcome of the last cart action, once: reading it appends the Set-Cookie that clears it. */
export function takeCartFlash(request: Request, headers: Headers): CartNotice | null {
  const raw = readCookie(request, FLASH_COOKIE);
  if (raw === null) return null;
  headers.append("Set-Cookie", `${FLASH_COOKIE}=; ${cookieAttributes(0, true)}`);
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as Partial<CartNotice>;
    return typeof value.message === "string" ? { ok: value.ok !== false, message: value.message.slice(0, 500) } : null;
  } catch {
    return null;
  }
}

export function writeCartFlash(headers: Headers, notice: CartNotice): void {
  // Path=/ so that the page's data request (/carrito.data) carries it too.
  headers.append("Set-Cookie", `${FLASH_COOKIE}=${encodeURIComponent(JSON.stringify(notice))}; ${cookieAttributes(60, true)}`);
}

// ---------------------------------------------------------------------------------------------
// Access for the browser that placed a guest order.

const ORDER_ACCESS_COOKIE = "forja_pedidos";
const ORDER_ACCESS_PATH = "/checkout/confirmacion";
const ORDER_ACCESS_MAX = 10;

function accessSignature(number: string): string {
  return createHmac("sha256", getAuthSecret()).update(`order-access:${number}`).digest("base64url").slice(0, 32);
}

/** Order numbers this browser may open without an account (verified signatures only). */
export function grantedOrderNumbers(request: Request): string[] {
  const raw = readCookie(request, ORDER_ACCESS_COOKIE);
  if (!raw) return [];
  const numbers: string[] = [];
  for (const entry of raw.split(".")) {
    const [number, signature] = entry.split("~");
    if (!number || !signature) continue;
    const expected = Buffer.from(accessSignature(number));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) numbers.push(number);
  }
  return numbers;
}

/** Set-Cookie that lets this browser open the confirmation of `number` (kept for the last 10 orders). */
export function grantOrderAccess(request: Request, number: string): Headers {
  const numbers = [number, ...grantedOrderNumbers(request).filter((granted) => granted !== number)].slice(0, ORDER_ACCESS_MAX);
  const value = numbers.map((granted) => `${granted}~${accessSignature(granted)}`).join(".");
  const secure = getEnv().secureCookies ? "; Secure" : "";
  return new Headers({ "Set-Cookie": `${ORDER_ACCESS_COOKIE}=${value}; Max-Age=${60 * 60 * 24 * 30}; Path=${ORDER_ACCESS_PATH}; HttpOnly; SameSite=Lax${secure}` });
}

/** Who is looking at a customer's order page: the signed-in account and the guest orders this browser placed. */
export async function orderViewer(meta: RequestMeta): Promise<OrderViewer> {
  const user = await getSessionUser(meta);
  return { userId: user?.id ?? null, grantedNumbers: grantedOrderNumbers(meta.request) };
}
