import type { Route } from "./+types/detail";
import { notFound } from "~/lib/errors";

// Quotes arrive with the quotes feature; until then no id belongs to anyone, so every id is a 404
// (never a 403 that would confirm a quote exists).
export function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export default function QuoteDetailPage() {
  return null;
}
