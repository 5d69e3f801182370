import { data } from "react-router";
import type { Route } from "./+types/confirmar";
import { AppLink } from "~/components/ui/app-link";
import { confirmEmail } from "~/features/accounts/email-confirmation.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Confirmación de correo", description: "Confirmación de su correo en Forja.", noindex: true });

// The link in the confirmation email lands here; confirming signs the person in.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return data({ confirmed: false, message: "El enlace no está completo. Pida uno nuevo desde su cuenta." }, { status: 400 });
  const result = await confirmEmail(requestMeta(request, context), token);
  if (!result.ok) return data({ confirmed: false, message: failureMessages(result).formErrors.join(" ") }, { status: failureStatus(result) });
  return data({ confirmed: true, message: "" }, { headers: signedInHeaders(result.value.headers) });
}

export default function ConfirmEmailPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.confirmed) {
    return (
      <AuthCard title="No pudimos confirmar su correo" lead={loaderData.message}>
        <AppLink to="/cuenta" className="btn-primary w-full">
          Ir a mi cuenta
        </AppLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="¡Correo confirmado!" lead="Gracias. Su cuenta está activa y ya puede consultar sus cotizaciones y pedidos.">
      <div className="space-y-3">
        <AppLink to="/quotes" className="btn-primary w-full">
          Ver mis cotizaciones
        </AppLink>
        <AppLink to="/cuenta" className="btn-secondary w-full">
          Ir a mi cuenta
        </AppLink>
      </div>
    </AuthCard>
  );
}
