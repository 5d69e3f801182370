import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/formulario";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { quoteStatusLabel } from "~/features/quotes/components/quote-status-pill";
import { listQuotesForSolicitud } from "~/features/quotes/list.server";
import { applySolicitudAction } from "~/features/solicitudes/commands.server";
import { StatusPill } from "~/features/solicitudes/components/solicitud-badges";
import { SolicitudContact } from "~/features/solicitudes/components/solicitud-contact";
import { SolicitudEstimates, SolicitudFiles } from "~/features/solicitudes/components/solicitud-files";
import { SolicitudHistory } from "~/features/solicitudes/components/solicitud-history";
import { SolicitudNotePanel } from "~/features/solicitudes/components/solicitud-note-panel";
import { optionLabel, SolicitudPanel } from "~/features/solicitudes/components/solicitud-panel";
import { SolicitudMessage, SolicitudProject } from "~/features/solicitudes/components/solicitud-project";
import { SolicitudRecord } from "~/features/solicitudes/components/solicitud-record";
import { SolicitudStatusPanel } from "~/features/solicitudes/components/solicitud-status-panel";
import { openSolicitud } from "~/features/solicitudes/detail.server";
import { SOLICITUD_TYPES, solicitudActionSchema } from "~/features/solicitudes/forms";
import { allowedNextStatuses } from "~/features/solicitudes/states";
import { notFound } from "~/lib/errors";
import { endSentence, formatDateTime } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: loaderData ? `${loaderData.solicitud.number} · Solicitudes` : "Solicitud",
    description: "Detalle de una solicitud recibida.",
    noindex: true,
  });

// Opening the page marks the solicitud as read (the first time only, with a history entry).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "solicitudes");
  const solicitud = await openSolicitud({ id: params.id, actor: staff });
  if (!solicitud) notFound(request);
  // The quotes made from this request: the panel links to them instead of offering a new one.
  const quotes = solicitud.type === "cotizacion" ? await listQuotesForSolicitud(solicitud.id) : [];
  return { solicitud, quotes };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "solicitudes");
  const formData = await readForm(request);
  const parsed = solicitudActionSchema().safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return data({ ok: false, intent: String(formData.get("intent") ?? ""), message: parsed.error.issues[0]?.message ?? "Revise el formulario.", note: "" }, { status: 400 });
  }
  const result = await applySolicitudAction({ id: params.id, action: parsed.data, actor: staff });
  if (!result.ok) {
    if (result.kind === "not-found") notFound(request);
    const note = parsed.data.intent === "nota" ? parsed.data.note : "";
    return data({ ok: false, intent: parsed.data.intent, message: failureMessages(result).formErrors[0] ?? "", note }, { status: failureStatus(result) });
  }
  // Back to the list: staying here would open (and so mark as read) the page again.
  if (result.value.intent === "no_leido") throw redirect("/admin/formularios");
  return { ok: true, intent: result.value.intent, message: result.value.message, note: "" };
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function AdminSolicitudPage({ loaderData, actionData }: Route.ComponentProps) {
  const { solicitud: s, quotes } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const feedback = (intent: string) =>
    actionData?.intent === intent ? actionData.ok ? <FormNotice>{actionData.message}</FormNotice> : <FormErrors errors={[actionData.message]} id={`error-${intent}`} /> : null;
  const refused = (intent: string) => actionData?.intent === intent && !actionData.ok;
  const isQuote = s.type === "cotizacion";
  // The state table decides which moves the staff are offered; the command refuses the others.
  const nextStatuses = allowedNextStatuses(s.status);

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/formularios" className={linkClass}>
          ← Solicitudes recibidas
        </AppLink>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-acero-900">{s.number}</h1>
        <StatusPill status={s.status} />
      </div>
      <p className="mt-1 text-acero-700">
        {optionLabel(SOLICITUD_TYPES, s.type)} de <strong>{s.name}</strong>
        {s.company ? ` (${s.company})` : ""}; {endSentence(`${isQuote ? "recibida" : "recibido"} el ${formatDateTime(s.createdAt)}`)}
      </p>

      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          <SolicitudContact solicitud={s} />
          {isQuote || s.description ? <SolicitudProject solicitud={s} /> : null}
          {s.subject || s.message ? <SolicitudMessage subject={s.subject} message={s.message} /> : null}
          {isQuote || s.files.length ? <SolicitudFiles solicitudId={s.id} files={s.files} /> : null}
          {s.estimates.length ? <SolicitudEstimates estimates={s.estimates} /> : null}
          <SolicitudRecord solicitud={s} />
        </div>

        <div className="space-y-6">
          {isQuote ? (
            <SolicitudPanel title="Cotización" id="seccion-cotizacion">
              <QuotePanel solicitudId={s.id} quotes={quotes} busy={busy} />
            </SolicitudPanel>
          ) : null}

          <SolicitudStatusPanel status={s.status} nextStatuses={nextStatuses} feedback={feedback("estado")} refused={refused("estado")} busy={busy} />
          <SolicitudNotePanel eventCount={s.events.length} feedback={feedback("nota")} refused={refused("nota")} errorId="error-nota" keptNote={actionData?.note ?? ""} busy={busy} />
          <SolicitudHistory events={s.events} />

          <Form method="post">
            {feedback("no_leido")}
            <button type="submit" name="intent" value="no_leido" className="btn-secondary w-full py-2" disabled={busy}>
              Marcar como no leído
            </button>
          </Form>
        </div>
      </div>
    </main>
  );
}

/**
 * The request's quotes, linked, or the button that makes the first one. "Crear cotización" opens the
 * live quote when there is one (createQuote), so a new one is offered only when every quote of this
 * request was cancelled, and then as a secondary action.
 */
function QuotePanel({ solicitudId, quotes, busy }: { solicitudId: string; quotes: { id: string; number: string; status: string }[]; busy: boolean }) {
  const create = (label: string, className: string) => (
    <Form method="post" action={`/admin/cotizaciones/nueva?solicitud=${solicitudId}`}>
      <input type="hidden" name="solicitud" value={solicitudId} />
      <button type="submit" className={className} disabled={busy}>
        {label}
      </button>
    </Form>
  );
  if (quotes.length === 0) {
    return (
      <>
        <p className="text-sm text-acero-700">Crea un borrador con el cliente y la descripción de esta solicitud, y cambia su estado a «Cotizado».</p>
        {create("Crear cotización", "btn-primary mt-3 w-full py-2")}
      </>
    );
  }
  const allCancelled = quotes.every((quote) => quote.status === "cancelada");
  return (
    <>
      <p className="text-sm text-acero-700">
        {quotes.length === 1 ? "Esta solicitud ya tiene una cotización:" : `Esta solicitud ya tiene ${quotes.length} cotizaciones:`}
      </p>
      <ul className="mt-2 space-y-1 text-sm">
        {quotes.map((quote) => (
          <li key={quote.id}>
            <AppLink to={`/admin/cotizaciones/${quote.id}`} className={linkClass}>
              {quote.number} · {quoteStatusLabel(quote.status)}
            </AppLink>
          </li>
        ))}
      </ul>
      {allCancelled ? (
        <div className="mt-4 border-t border-acero-200 pt-4">
          <p className="text-sm text-acero-700">
            {quotes.length === 1 ? "Esa cotización está cancelada." : "Todas están canceladas."} Si hace falta, puede crear otra a partir de esta solicitud.
          </p>
          {create("Crear otra cotización", "btn-secondary mt-3 w-full py-2 text-sm")}
        </div>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
