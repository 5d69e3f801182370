import type { Route } from "./+types/carrito";
import { getCartSummary } from "~/features/orders/cart.server";
import { requestMeta } from "~/lib/request-meta";

// GET /api/carrito — the header's count of pieces, for the browser after hydration. Never cached.
export async function loader({ request, context }: Route.LoaderArgs) {
  const summary = await getCartSummary(requestMeta(request, context));
  summary.headers.set("Cache-Control", "private, no-store");
  return Response.json({ code: 200, data: { quantity: summary.quantity } }, { headers: summary.headers });
}
