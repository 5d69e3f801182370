import { data } from "react-router";
import type { Route } from "./+types/auth-error";
import { ErrorPage } from "~/components/layout/error-page";
import { ERROR_TITLES } from "~/lib/errors";
import { pageMeta } from "~/lib/seo";

// Where a failed provider sign-in ends. The literal messages are the original app's.
const MESSAGES: Record<string, string> = {
  state_mismatch: "State parameters don't match.",
  state_not_found: "State parameters don't match.",
  state_invalid: "State parameters don't match.",
  please_restart_the_process: "State parameters don't match.",
  oauth_provider_not_found: "Missing or invalid provider",
  provider_not_found: "Missing or invalid provider",
};

export const meta: Route.MetaFunction = () => pageMeta({ title: "No pudimos iniciar sesión", description: "Error al iniciar sesión con un proveedor.", noindex: true });

export function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("error") ?? "";
  const message = MESSAGES[code] ?? "No pudimos completar el inicio de sesión con el proveedor.";
  return data({ code, message }, { status: 400 });
}

export default function AuthErrorPage({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <ErrorPage error={{ statusCode: 400, statusMessage: ERROR_TITLES[400], message: loaderData.message }} />
      <p className="container-page -mt-8 pb-12 text-acero-700">
        Intente de nuevo desde <a className="font-semibold text-forja-700 underline underline-offset-2" href="/login">Iniciar sesión</a>. Si el problema sigue, use su correo y contraseña.
      </p>
    </div>
  );
}
