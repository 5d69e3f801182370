import { redirect } from "react-router";
import type { Route } from "./+types/connect-redirect";

// /connect/{provider}/redirect: where the content-service API (`/api/connect/{provider}`) sends the
// browser back, with a one-time `access_token`, when the client named no callback of its own — the
// front end the seed describes. Forja's own front end needs no token here (the provider sign-in also
// left the session cookie), so it sends the visitor on as any provider sign-in does, and the token
// leaves the address bar and the history at once.
export function loader(_: Route.LoaderArgs) {
  throw redirect("/auth/listo");
}

export default function ConnectRedirectPage() {
  return null;
}
