import { redirect } from "react-router";
import type { Route } from "./+types/vista-cliente-terminar";
import { endBrowserImpersonation } from "~/features/accounts/index.server";
import { requestMeta } from "~/lib/request-meta";

// «Terminar» on the banner of an impersonating browser (docs/decisions/0063): ends the customer's
// view and gives the admin's own session back, at /admin/clientes. POST only; a read goes there too.
export async function action({ request, context }: Route.ActionArgs) {
  const { headers, restored } = await endBrowserImpersonation(requestMeta(request, context));
  throw redirect(restored ? "/admin/clientes" : "/admin/login", { headers });
}

export function loader() {
  throw redirect("/admin/clientes");
}
