import { useEffect } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/auth-listo";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { AUTH_POPUP_MESSAGE } from "~/features/accounts/components/provider-buttons";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Sesión iniciada", description: "Sesión iniciada con su proveedor.", noindex: true });

// A provider sign-in that succeeded: set the readable session hint, then go on (or, in the popup,
// tell the opener and close).
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/cuenta");
  const user = await getSessionUser(requestMeta(request, context));
  if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  const headers = signedInHeaders(new Headers());
  if (url.searchParams.get("popup") !== "1") throw redirect(redirectTo, { headers });
  return data({ redirectTo, name: user.name }, { headers });
}

export default function ProviderDonePage({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    if (window.opener && !window.opener.closed) {
      window.opener.postMessage({ type: AUTH_POPUP_MESSAGE, redirectTo: loaderData.redirectTo }, window.location.origin);
      window.close();
    } else {
      window.location.replace(loaderData.redirectTo);
    }
  }, [loaderData.redirectTo]);
  return (
    <AuthCard title={`Le damos la bienvenida, ${loaderData.name}`} lead="Su sesión está iniciada. Esta ventana se cerrará sola.">
      <a href={loaderData.redirectTo} className="btn-primary w-full">
        Continuar
      </a>
    </AuthCard>
  );
}
