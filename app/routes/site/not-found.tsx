import { redirect } from "react-router";
import type { Route } from "./+types/not-found";
import { movedTo } from "~/features/site/pages.server";
import { notFound } from "~/lib/errors";

// Every path no other route claims: a 301 when staff moved a page away from it (a slug they
// changed, or a redirect they made), else a real 404 answered by the shared error page.
export async function loader({ request }: Route.LoaderArgs) {
  const target = await movedTo(new URL(request.url).pathname);
  if (target) throw redirect(target, 301);
  notFound(request);
}

export default function NotFoundPage() {
  return null;
}
