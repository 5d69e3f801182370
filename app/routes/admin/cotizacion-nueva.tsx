import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/cotizacion-nueva";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, SubmitButton } from "~/components/ui/form";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { createQuote, getQuoteSource } from "~/features/quotes/create.server";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Nueva cotización", description: "Crear una cotización.", noindex: true });

// GET only confirms (a link must never create a record); the POST creates the draft and opens the builder.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "cotizaciones");
  const solicitudId = new URL(request.url).searchParams.get("solicitud") ?? "";
  const solicitud = solicitudId ? await getQuoteSource(solicitudId) : null;
  return { solicitudId, solicitud };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "cotizaciones");
  const formData = await readForm(request);
  const solicitudId = String(formData.get("solicitud") ?? "").trim() || null;
  const result = await createQuote({ solicitudId, actor: { id: staff.id, name: staff.name } });
  if (!result.ok) return data({ message: failureMessages(result).formErrors.join(" ") }, { status: failureStatus(result) });
  throw redirect(`/admin/cotizaciones/${result.value.id}`);
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function NewQuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { solicitudId, solicitud } = loaderData;
  return (
    <main id="contenido" className="max-w-2xl p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/cotizaciones" className={linkClass}>
          ← Cotizaciones
        </AppLink>
      </p>
      <h1 className="mt-3 text-2xl font-bold text-acero-900">Nueva cotización</h1>
      {actionData?.message ? (
        <div className="mt-4">
          <FormErrors errors={[actionData.message]} id="error-nueva" />
        </div>
      ) : null}
      {solicitudId && !solicitud ? (
        <div className="mt-4">
          <FormErrors errors={["No encontramos esa solicitud. Puede crear una cotización en blanco."]} id="error-solicitud" />
        </div>
      ) : null}
      <div className="mt-6 rounded-lg border border-acero-200 bg-white p-5">
        {solicitud ? (
          <p className="text-acero-800">
            Se creará un borrador con los datos de la solicitud{" "}
            <AppLink to={`/admin/formularios/${solicitud.id}`} className={linkClass}>
              {solicitud.number}
            </AppLink>{" "}
            de <strong>{solicitud.name}</strong>
            {solicitud.company ? ` (${solicitud.company})` : ""}: cliente, correo y la descripción como primera partida. La solicitud pasará a «Cotizado».
          </p>
        ) : (
          <p className="text-acero-800">Se creará un borrador en blanco con un número COT nuevo. Después capture el cliente y las partidas.</p>
        )}
        <Form method="post" className="mt-4">
          {solicitud ? <input type="hidden" name="solicitud" value={solicitud.id} /> : null}
          <SubmitButton pendingLabel="Creando…" className="btn-primary">
            {solicitud ? "Crear cotización desde la solicitud" : "Crear cotización en blanco"}
          </SubmitButton>
        </Form>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
