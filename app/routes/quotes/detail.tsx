import { type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/detail";
import { LiveNotices } from "~/components/live/live-notices";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { requireUser } from "~/features/accounts/guards.server";
import { CustomerQuoteRevisions } from "~/features/quotes/components/customer-quote-revisions";
import { QuoteMessageForm } from "~/features/quotes/components/message-form";
import { QuoteAnswerSection } from "~/features/quotes/components/quote-answer-section";
import { QuoteDocument } from "~/features/quotes/components/quote-document";
import { QuoteHistory } from "~/features/quotes/components/quote-history";
import { QuoteMessageThread } from "~/features/quotes/components/quote-messages";
import { QuotePayment } from "~/features/quotes/components/quote-payment";
import { QuoteStatusPill } from "~/features/quotes/components/quote-status-pill";
import { QuoteSummary } from "~/features/quotes/components/quote-summary";
import { useLiveQuote } from "~/features/quotes/components/use-live-quote";
import { useSentCount } from "~/features/quotes/components/use-sent-count";
import { ValidityCountdown } from "~/features/quotes/components/validity-countdown";
import { acceptQuote, rejectQuote } from "~/features/quotes/lifecycle.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { quotePaymentDetails } from "~/features/quotes/payment.server";
import { getSiteFacts } from "~/features/site/site-facts.server";
import { getQuoteForCustomer } from "~/features/quotes/read.server";
import { allowedActions } from "~/features/quotes/states";
import { AcceptQuoteSchema, QuoteMessageSchema, RejectQuoteSchema } from "~/features/quotes/forms";
import { notFound } from "~/lib/errors";
import { formatDate, formatMoney } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { useSiteFacts } from "../site/site-facts";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ title: loaderData ? `Cotización ${loaderData.quote.number}` : "Cotización", description: "Su cotización de Forja.", noindex: true });

// After a successful answer the action redirects here with ?ok=… (so a reload never posts twice).
const NOTICES: Record<string, string> = {
  aceptada: "Gracias. Registramos su aceptación y le enviamos una confirmación por correo. Abajo están los datos para el pago por SPEI; nuestro equipo le escribirá para coordinar la entrega.",
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
  const facts = await getSiteFacts();
  const payment = quotePaymentDetails(quote, facts);
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
    /** The bank details, once accepted (the same account as orders; the reference is the quote number). */
    payment: payment && { ...payment, depositPercent: facts.paymentTerms.depositPercent, receiptEmail: facts.email },
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
  const formData = await readForm(request);
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

export default function QuoteDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, revision, payment, revisions, comparisons, messages, history, notice, now } = loaderData;
  const facts = useSiteFacts();
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? actionData.result : undefined);
  // Live: a new status or revision, or a message from Forja, reloads this page's data.
  const notices = useLiveQuote({ id: quote.id, status: quote.status, revision: revision.revision }, "customer");
  const sentMessages = useSentCount("mensaje");
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
          {payment ? <QuotePayment payment={payment} total={total} /> : null}

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

          <QuoteAnswerSection
            quote={quote}
            revision={revision.revision}
            total={total}
            canAccept={canAccept}
            canReject={canReject}
            acceptResult={resultFor("aceptar")}
            rejectResult={resultFor("rechazar")}
            rejectOpen={actionData?.intent === "rechazar"}
          />

          <section aria-labelledby="mensajes-titulo" id="mensajes" className="rounded-lg border border-acero-200 p-6">
            <h2 id="mensajes-titulo" className="text-lg font-semibold text-acero-900">
              Mensajes
            </h2>
            <p className="mt-1 text-sm text-acero-700">Pregunte lo que necesite sobre esta cotización; le avisamos por correo cuando le respondamos.</p>
            <div className="mt-4">
              <QuoteMessageThread messages={messages} emptyText="Todavía no hay mensajes sobre esta cotización." />
            </div>
            <div className="mt-6">
              <QuoteMessageForm key={sentMessages} lastResult={resultFor("mensaje")} label="Escriba su mensaje" />
            </div>
          </section>
        </div>

        <aside className="min-w-0 space-y-8">
          <QuoteSummary number={quote.number} total={total} leadTimeDays={revision.leadTimeDays} validity={validity} contact={facts} />
          <CustomerQuoteRevisions revisions={revisions} current={revision.revision} comparisons={comparisons} />

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
      <LiveNotices notices={notices} />
    </>
  );
}
