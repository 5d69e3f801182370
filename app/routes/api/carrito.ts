import type { Route } from "./+types/carrito";
import { countCartItems } from "~/features/orders/cart.server";
import { readCartSession, writeCartFlash } from "~/features/orders/http.server";
import { requestMeta } from "~/lib/request-meta";

// GET /api/carrito — the header's count of pieces, for the browser after hydration. Never cached.
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await readCartSession(requestMeta(request, context));
  // What a merge changed is shown on the next visit to /carrito.
  if (session.owner && session.notices.length) writeCartFlash(session.headers, { ok: true, message: session.notices.join(" ") });
  const quantity = await countCartItems(session.owner);
  session.headers.set("Cache-Control", "private, no-store");
  return Response.json({ code: 200, data: { quantity } }, { headers: session.headers });
}
