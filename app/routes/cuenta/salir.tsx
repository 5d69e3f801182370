import { redirect } from "react-router";
import type { Route } from "./+types/salir";
import { signOut } from "~/features/accounts/sign-in.server";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { readForm } from "~/lib/request-body";

// Logging out ends the session on the server (POST only, so a link or prefetch cannot do it).
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const headers = await signOut(requestMeta(request, context));
  throw redirect(safeRedirect(formData.get("redirectTo"), "/"), { headers: signedInHeaders(headers, false) });
}

export function loader() {
  throw redirect("/cuenta");
}
