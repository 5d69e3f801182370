import { type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/detail";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { requireUser } from "~/features/accounts/guards.server";
import { AcceptQuoteForm } from "~/features/quotes/components/accept-form";
import { QuoteMessageForm } from "~/features/quotes/components/message-form";
import { QuoteDocument } from "~/features/quotes/components/quote-document";
import { QuoteHistory } from "~/features/quotes/components/quote-history";
import { QuoteMessageThread } from "~/features/quotes/components/quote-messages";
import { QuoteStatusPill } from "~/features/quotes/components/quote-status-pill";
import { RejectQuoteForm } from "~/features/quotes/components/reject-form";
import { RevisionComparison } from "~/features/quotes/components/revision-comparison";
import { ValidityCountdown } from "~/features/quotes/components/validity-countdown";
import { acceptQuote, rejectQuote } from "~/features/quotes/lifecycle.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { getQuoteForCustomer } from "~/features/quotes/read.server";
import { allowedActions } from "~/features/quotes/states";
import { AcceptQuoteSchema, QuoteMessageSchema, RejectQuoteSchema } from "~/features/quotes/forms";
import { siteConfig } from "~/services/site-config/site-config";
import { notFound } from "~/lib/errors";
import { formatDate, formatDateTime, formatMoney } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ title: loaderData ? `Cotización ${loaderData.quote.number}` : "Cotización", description: "Su cotización de Forja.", noindex: true });

// After a successful answer the action redirects here with ?ok=… (so a reload never posts twice).
const NOTICES: Record<string, string> = {
  aceptada: "Gracias. Registramos su aceptación y le enviamos una confirmación por correo. Nuestro equipo le escribirá para coordinar el anticipo y la entrega.",
  rechazada: "Registramos que rechazó la cotización. Gracias por decirnos el motivo; si quiere una revisión, escríbanos abajo qué le funcionaría.",
  mensaje: "Enviamos su mensaje al equipo de Forja. Le avisaremos por correo cuando le respondan.",
};

// Only what the page shows goes to the browser: no internal notes, ids of staff or audit data.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  const now = new Date();
  const view = await getQuoteForCustomer(params.id, user.id, now);
  if (!view) notFound(request);
  const { quote, revision } = view;
  const ok = new URL(request.url).searchParams.get("ok");
  return {
    now,
    notice: ok ? (NOTICES[ok] ?? null) : null,
    quote: {
      id: quote.id,
      number: quote.number,
      status: quote.status,
      customerName: quote.customerName,
      customerEmail: quote.customerEmail,
      customerCompany: quote.customerCompany,
      validUntil: quote.validUntil,
      acceptedName: quote.acceptedName,
      acceptedAt: quote.acceptedAt,
      rejectedReason: quote.rejectedReason,
      rejectedNote: quote.rejectedNote,
      rejectedAt: quote.rejectedAt,
      cancelledAt: quote.cancelledAt,
    },
    revision: {
      revision: revision.revision,
      sentAt: revision.sentAt,
      validUntil: revision.validUntil,
      lines: revision.lines,
      leadTimeDays: revision.leadTimeDays,
      terms: revision.terms,
      subtotalCentavos: revision.subtotalCentavos,
      ivaCentavos: revision.ivaCentavos,
      totalCentavos: revision.totalCentavos,
    },
    revisions: view.revisions,
    comparisons: view.comparisons,
    messages: view.messages.map(({ id, authorName, fromStaff, body, createdAt }) => ({ id, authorName, fromStaff, body, createdAt })),
    history: view.history.map(({ id, kind, revision, detail, actorName, createdAt }) => ({ id, kind, revision, detail, actorName, createdAt })),
  };
}

// A refusal by the rules (409: answered in another tab, expired, revised) means the quote changed
// under this page: reload its data so the page shows it as it is now, next to the refusal.
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

type Intent = "aceptar" | "rechazar" | "mensaje";
type ActionData = { intent: Intent | null; result?: SubmissionResult<string[]>; refusal?: string };

// One action, three intents. The owner check comes first: for anyone else the quote does not exist.
export async function action({ request, context, params }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const user = await requireUser(meta);
  if (!(await getQuoteForCustomer(params.id, user.id))) notFound(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const actor = { id: user.id, name: user.name };

  const respond = (intent: Intent, parsed: Submission<unknown>, outcome: Result, ok: string) => {
    if (outcome.ok) throw redirect(`/quotes/${params.id}?ok=${ok}${ok === "mensaje" ? "#mensajes" : ""}`);
    if (outcome.kind === "not-found") notFound(request);
    // Refused by the rules (already answered, expired…): nothing changed; say why, keep the values.
    return data<ActionData>({ intent, result: parsed.reply(), refusal: failureMessages(outcome).formErrors[0] }, { status: failureStatus(outcome) });
  };

  if (intent === "aceptar") {
    const parsed = parseWithZod(formData, { schema: AcceptQuoteSchema });
    if (parsed.status !== "success") return data<ActionData>({ intent, result: parsed.reply() }, { status: 400 });
    const outcome = await acceptQuote(params.id, actor, {
      fullName: parsed.value.fullName,
      ip: meta.ip,
      userAgent: request.headers.get("user-agent") ?? "",
      revision: parsed.value.revision,
    });
    return respond(intent, parsed, outcome, "aceptada");
  }
  if (intent === "rechazar") {
    const parsed = parseWithZod(formData, { schema: RejectQuoteSchema });
    if (parsed.status !== "success") return data<ActionData>({ intent, result: parsed.reply() }, { status: 400 });
    const outcome = await rejectQuote(params.id, actor, { reason: parsed.value.reason, note: parsed.value.note, revision: parsed.value.revision });
    return respond(intent, parsed, outcome, "rechazada");
  }
  if (intent === "mensaje") {
    const parsed = parseWithZod(formData, { schema: QuoteMessageSchema });
    if (parsed.status !== "success") return data<ActionData>({ intent, result: parsed.reply() }, { status: 400 });
    const outcome = await addQuoteMessage(params.id, actor, { body: parsed.value.body, fromStaff: false });
    return respond(intent, parsed, outcome, "mensaje");
  }
  return data<ActionData>({ intent: null, refusal: "No reconocimos esa acción. Recargue la página e inténtelo de nuevo." }, { status: 400 });
}

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

export default function QuoteDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, revision, revisions, comparisons, messages, history, notice, now } = loaderData;
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);
  const total = formatMoney(revision.totalCentavos);
  // The lifecycle table decides what the customer may answer now (only a sent quote still valid).
  const actions = allowedActions({ status: quote.status, who: "customer" });
  const canAccept = actions.includes("aceptar");
  const canReject = actions.includes("rechazar");
  const open = canAccept || canReject;
  // Once answered or cancelled, the countdown no longer matters: just say until when it was valid.
  const counting = open || quote.status === "vencida";
  const validity = counting ? (
    <ValidityCountdown status={quote.status} validUntil={revision.validUntil} now={now} />
  ) : revision.validUntil ? (
    `Válida hasta el ${formatDate(revision.validUntil)}`
  ) : (
    "—"
  );
  return (
    <>
      <PageIntro
        eyebrow="Mis cotizaciones"
        title={`Cotización ${quote.number}`}
        lead={
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-base">
            <QuoteStatusPill status={quote.status} />
            <span>
              Revisión {revision.revision}
              {revision.sentAt ? `, enviada el ${formatDate(revision.sentAt)}` : ""}.
            </span>
            {counting ? validity : null}
          </div>
        }
      >
        <a href={`/quotes/${quote.id}/pdf`} className="btn-primary" download={`${quote.number}.pdf`}>
          Descargar PDF
        </a>
        <AppLink to="/quotes" className="btn-secondary">
          Todas mis cotizaciones
        </AppLink>
      </PageIntro>

      <div className="container-page grid gap-8 py-10 lg:grid-cols-3">
        <div className="min-w-0 space-y-8 lg:col-span-2">
          {notice ? <FormNotice>{notice}</FormNotice> : null}
          {actionData?.refusal ? <FormErrors errors={[actionData.refusal]} id="respuesta-error" /> : null}

          <QuoteDocument
            number={quote.number}
            revision={revision.revision}
            customer={{ name: quote.customerName, company: quote.customerCompany, email: quote.customerEmail }}
            lines={revision.lines}
            subtotalCentavos={revision.subtotalCentavos}
            ivaCentavos={revision.ivaCentavos}
            totalCentavos={revision.totalCentavos}
            leadTimeDays={revision.leadTimeDays}
            validity={validity}
            terms={revision.terms}
          />

          <section aria-labelledby="respuesta" id="responder" className="rounded-lg border border-acero-200 p-6">
            <h2 id="respuesta" className="text-lg font-semibold text-acero-900">
              {open ? "Su respuesta" : "Estado de la cotización"}
            </h2>
            {open ? (
              <>
                <p className="mt-2 text-acero-700">
                  Si está de acuerdo, acéptela aquí con su nombre como firma. Si algo no le funciona, escríbanos abajo antes de rechazarla: podemos
                  preparar una revisión.
                </p>
                {canAccept ? (
                  <div className="mt-5">
                    <AcceptQuoteForm number={quote.number} revision={revision.revision} total={total} lastResult={resultFor("aceptar")} />
                  </div>
                ) : null}
                {canReject ? (
                  <details className="mt-8 border-t border-acero-200 pt-5" open={actionData?.intent === "rechazar"}>
                    <summary className="cursor-pointer font-semibold text-acero-900">No me conviene: rechazar la cotización</summary>
                    <div className="mt-4">
                      <RejectQuoteForm revision={revision.revision} lastResult={resultFor("rechazar")} />
                    </div>
                  </details>
                ) : null}
              </>
            ) : (
              <StatusRecord quote={quote} />
            )}
          </section>

          <section aria-labelledby="mensajes-titulo" id="mensajes" className="rounded-lg border border-acero-200 p-6">
            <h2 id="mensajes-titulo" className="text-lg font-semibold text-acero-900">
              Mensajes
            </h2>
            <p className="mt-1 text-sm text-acero-700">Pregunte lo que necesite sobre esta cotización; le avisamos por correo cuando le respondamos.</p>
            <div className="mt-4">
              <QuoteMessageThread messages={messages} emptyText="Todavía no hay mensajes sobre esta cotización." />
            </div>
            <div className="mt-6">
              <QuoteMessageForm key={messages.length} lastResult={resultFor("mensaje")} label="Escriba su mensaje" />
            </div>
          </section>
        </div>

        <aside className="min-w-0 space-y-8">
          <section aria-labelledby="resumen" className="rounded-lg border border-acero-200 bg-acero-50 p-6">
            <h2 id="resumen" className="text-lg font-semibold text-acero-900">
              Resumen
            </h2>
            <dl className="mt-3 space-y-2 text-sm">
              <div>
                <dt className="text-acero-700">Total (IVA incluido)</dt>
                <dd className="text-xl font-bold text-acero-900">{total} MXN</dd>
              </div>
              <div>
                <dt className="text-acero-700">Plazo de entrega</dt>
                <dd className="text-acero-900">
                  {revision.leadTimeDays} {revision.leadTimeDays === 1 ? "día hábil" : "días hábiles"}
                </dd>
              </div>
              <div>
                <dt className="text-acero-700">Vigencia</dt>
                <dd className="text-acero-900">{validity}</dd>
              </div>
            </dl>
            <p className="mt-4 text-sm text-acero-700">
              ¿Prefiere hablarlo? Llámenos al{" "}
              <a href={siteConfig.phone.href} className={linkClass}>
                {siteConfig.phone.display}
              </a>{" "}
              o escriba a{" "}
              <a href={`mailto:${siteConfig.email}?subject=${encodeURIComponent(`Cotización ${quote.number}`)}`} className={linkClass}>
                {siteConfig.email}
              </a>
              .
            </p>
          </section>

          <section aria-labelledby="revisiones" className="rounded-lg border border-acero-200 p-6">
            <h2 id="revisiones" className="text-lg font-semibold text-acero-900">
              Revisiones
            </h2>
            <ol className="mt-3 space-y-1 text-sm">
              {[...revisions].reverse().map((item) => (
                <li key={item.revision} className="flex flex-wrap justify-between gap-x-3">
                  <span className={item.revision === revision.revision ? "font-semibold text-acero-900" : "text-acero-800"}>
                    Revisión {item.revision}
                    {item.revision === revision.revision ? " (vigente)" : ""}
                    {item.sentAt ? ` · ${formatDate(item.sentAt)}` : ""}
                  </span>
                  <span className="text-acero-900">{formatMoney(item.totalCentavos)}</span>
                </li>
              ))}
            </ol>
            {comparisons.length ? (
              <div className="mt-4 space-y-4">
                {[...comparisons].reverse().map((comparison) => (
                  <RevisionComparison key={comparison.revision} comparison={comparison} headingLevel={3} />
                ))}
              </div>
            ) : (
              <p className="mt-3 text-sm text-acero-700">Esta es la única revisión; si la actualizamos, aquí verá qué cambió.</p>
            )}
          </section>

          <section aria-labelledby="historial" className="rounded-lg border border-acero-200 p-6">
            <h2 id="historial" className="text-lg font-semibold text-acero-900">
              Historial
            </h2>
            <div className="mt-3">
              <QuoteHistory events={history} />
            </div>
          </section>
        </aside>
      </div>
    </>
  );
}

type QuoteRecord = Route.ComponentProps["loaderData"]["quote"];

/** What happened to a quote that can no longer be answered. */
function StatusRecord({ quote }: { quote: QuoteRecord }) {
  if (quote.status === "aceptada") {
    return (
      <div className="mt-3 rounded-md border border-green-200 bg-green-50 p-4 text-green-900">
        <p className="font-semibold">
          Aceptada por {quote.acceptedName}
          {quote.acceptedAt ? ` el ${formatDateTime(quote.acceptedAt)}` : ""} (hora de la Ciudad de México).
        </p>
        <p className="mt-1 text-sm">Nuestro equipo le escribirá para coordinar el anticipo, la liberación de archivos y la fecha de entrega. El PDF incluye el registro de su aceptación.</p>
      </div>
    );
  }
  if (quote.status === "rechazada") {
    return (
      <div className="mt-3 text-acero-800">
        <p>
          Usted rechazó esta cotización{quote.rejectedAt ? ` el ${formatDateTime(quote.rejectedAt)} (hora de la Ciudad de México)` : ""}.
        </p>
        {quote.rejectedReason ? <p className="mt-1">Motivo: {quote.rejectedReason}.</p> : null}
        {quote.rejectedNote ? <p className="mt-2 whitespace-pre-wrap text-acero-700">«{quote.rejectedNote}»</p> : null}
        <p className="mt-2 text-sm">Si cambian sus necesidades, escríbanos y le enviamos una revisión.</p>
      </div>
    );
  }
  if (quote.status === "vencida") {
    return (
      <p className="mt-3 text-acero-800">
        Esta cotización venció{quote.validUntil ? ` el ${formatDate(quote.validUntil)}` : ""} y ya no se puede aceptar. Escríbanos abajo y le
        enviamos una revisión con precios y plazos vigentes.
      </p>
    );
  }
  if (quote.status === "cancelada") {
    return (
      <p className="mt-3 text-acero-800">
        Forja canceló esta cotización{quote.cancelledAt ? ` el ${formatDate(quote.cancelledAt)}` : ""}. Si tiene dudas, escríbanos abajo o{" "}
        <AppLink to="/cotiza" className={linkClass}>
          solicite una cotización nueva
        </AppLink>
        .
      </p>
    );
  }
  return null;
}
