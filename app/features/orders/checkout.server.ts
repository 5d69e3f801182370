import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { billingProfiles, type OrderInvoice } from "~/db/schema/orders";
import type { SessionUser } from "~/features/accounts/index.server";
import { conflict, invalid, limited, ok, type Result } from "~/lib/result";
import { issueFormToken } from "~/services/security/form-token.server";
import { consumeRateLimit, rateLimitMessage } from "~/services/security/rate-limit.server";
import { loadCart, type CartOwner, type CartView } from "./cart.server";
import { findOrderByToken, placeOrder } from "./place-order.server";
import type { CheckoutInput } from "./forms";

// /checkout: what the page starts with, and confirming it. The route guards the form (honeypot and
// the signed one-time token, kind "checkout") and parses it; this module places the order. Unlike
// public contact forms, the "filled in under 3 s" rule is not applied: a returning customer with
// everything prefilled may confirm at once, and an order needs a cart with stock, so it is no spam
// target (the honeypot and a per-IP rate limit still apply).

export const CHECKOUT_FORM = "checkout";
/** Orders per IP in the window; generous, since a company may place several from one office. */
const CHECKOUT_RULE = { limit: 15, windowMs: 10 * 60_000 };
const EMPTY_CART_MESSAGE = "Su carrito está vacío. Agregue productos desde el catálogo para hacer un pedido.";

export function issueCheckoutToken(): string {
  return issueFormToken(CHECKOUT_FORM);
}

export async function getBillingProfile(userId: string): Promise<OrderInvoice | null> {
  const [row] = await getDb()
    .select({ rfc: billingProfiles.rfc, razonSocial: billingProfiles.razonSocial, regimenFiscal: billingProfiles.regimenFiscal, usoCfdi: billingProfiles.usoCfdi, codigoPostal: billingProfiles.codigoPostal })
    .from(billingProfiles)
    .where(eq(billingProfiles.userId, userId));
  return row ?? null;
}

export interface CheckoutPage {
  cart: CartView;
  signedIn: boolean;
  /** The form's starting values: the account's contact data and saved CFDI data. */
  defaults: Record<string, string | boolean | undefined>;
  hasSavedInvoice: boolean;
}

function defaultsFor(user: SessionUser | null, invoice: OrderInvoice | null): CheckoutPage["defaults"] {
  return {
    name: user?.name,
    email: user?.email,
    phone: user?.phone ?? undefined,
    company: user?.company ?? undefined,
    delivery: "recoger",
    paymentMethod: "spei",
    requiereFactura: invoice ? true : undefined,
    rfc: invoice?.rfc,
    razonSocial: invoice?.razonSocial,
    regimenFiscal: invoice?.regimenFiscal,
    usoCfdi: invoice?.usoCfdi,
    codigoPostalFiscal: invoice?.codigoPostal,
  };
}

/**
 * /checkout's data; `cart.lines` is empty when there is nothing to buy (the page sends people back
 * to /carrito). `notices` are earlier changes to show first (what a cart merge adjusted).
 */
export async function getCheckoutPage(input: { owner: CartOwner | null; user: SessionUser | null; notices?: string[] }): Promise<CheckoutPage> {
  const cart = await loadCart(input.owner);
  cart.notices.unshift(...(input.notices ?? []));
  const invoice = input.user ? await getBillingProfile(input.user.id) : null;
  return { cart, signedIn: !!input.user, defaults: defaultsFor(input.user, invoice), hasSavedInvoice: !!invoice };
}

export interface CheckoutOrderInput {
  checkout: CheckoutInput;
  /** The cart's owner; null for a guest without a cart. */
  owner: CartOwner | null;
  /** The signed-in customer, if any: the order is theirs and the CFDI data is saved for them. */
  userId: string | null;
  /** The one-time checkout token of the page that was submitted (already verified by the route). */
  token: string;
  ip: string;
}

/**
 * Confirms a checkout. A second submit of the same page answers with the first order, before any
 * limit or cart check; then the per-IP limit ("limited"), an empty cart ("invalid") and the cart's
 * own refusals — stock, minimum order, a changed price ("conflict") — each with nothing changed.
 */
export async function placeCheckoutOrder(input: CheckoutOrderInput): Promise<Result<{ number: string }>> {
  const existing = await findOrderByToken(input.token);
  if (existing) return ok({ number: existing.number });

  const limit = await consumeRateLimit(`checkout:${input.ip || "desconocida"}`, CHECKOUT_RULE);
  if (!limit.allowed) return limited(rateLimitMessage(limit), limit.retryAfterSeconds);

  if (!input.owner) return invalid(EMPTY_CART_MESSAGE);
  const placed = await placeOrder({ owner: input.owner, userId: input.userId, checkout: input.checkout, checkoutToken: input.token });
  if (!placed.ok) return conflict(placed.message);
  return ok({ number: placed.number });
}
