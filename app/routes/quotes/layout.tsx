import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";

// "My quotes" needs a signed-in customer; without a session the visitor goes to /login and back.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  return { name: user.name };
}

export default function QuotesLayout() {
  return <Outlet />;
}
