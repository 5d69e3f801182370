import type { Route } from "./+types/not-found";
import { notFound } from "~/lib/errors";

// Every path no other route claims: a real 404 answered by the shared error page.
export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export default function NotFoundPage() {
  return null;
}
