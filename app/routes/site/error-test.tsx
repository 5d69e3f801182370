import type { Route } from "./+types/error-test";
import { notFound } from "~/lib/errors";

// Lets browser tests see the 500 page of a real server error; invisible unless FORJA_ERROR_ROUTE=1.
export function loader({ request }: Route.LoaderArgs) {
  if (process.env.FORJA_ERROR_ROUTE !== "1") notFound(request);
  throw new Error("Falla provocada para probar la página de error");
}

export default function ErrorTestPage() {
  return null;
}
