import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, redirect, useLocation, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/cotizacion";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { LiveNotices } from "~/components/live/live-notices";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { builderDefaults, QuoteBuilder, QuoteBuilderSchema } from "~/features/quotes/components/quote-builder";
import { QuoteHistory } from "~/features/quotes/components/quote-history";
import { StaffQuoteHeader } from "~/features/quotes/components/staff-quote-header";
import { StaffQuoteMessages } from "~/features/quotes/components/staff-quote-messages";
import { StaffPanel } from "~/features/quotes/components/staff-quote-panel";
import { StaffQuotePreview } from "~/features/quotes/components/staff-quote-preview";
import { StaffQuoteRecord } from "~/features/quotes/components/staff-quote-record";
import { StaffQuoteRevisions } from "~/features/quotes/components/staff-quote-revisions";
import { StaffQuoteStatus, staffQuoteValidity } from "~/features/quotes/components/staff-quote-status";
import { useLiveQuote } from "~/features/quotes/components/use-live-quote";
import { saveQuoteDraft } from "~/features/quotes/draft.server";
import { cancelQuote, reviseQuote, sendQuote } from "~/features/quotes/lifecycle.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { getQuoteForStaff } from "~/features/quotes/read.server";
import { allowedActions } from "~/features/quotes/states";
import { QuoteMessageSchema } from "~/features/quotes/forms";
import { notFound } from "~/lib/errors";
import { replyToFailure } from "~/lib/form-reply";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Failure, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: loaderData ? `${loaderData.quote.number} · Cotizaciones` : "Cotización",
    description: "Detalle de una cotización.",
    noindex: true,
  });

// The same page is the builder while the newest revision is an unsent draft, and the detail otherwise.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "cotizaciones");
  const found = await getQuoteForStaff(params.id);
  if (!found) notFound(request);
  const search = new URL(request.url).searchParams;
  return { ...found, preview: search.get("vista") === "previa", justSent: search.has("enviada"), now: new Date() };
}

// A refusal by the rules (409: sent, answered or cancelled meanwhile, e.g. from another tab) means
// the quote changed under this page: reload it so the page shows its real state next to the refusal.
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

interface ActionResult {
  intent: string;
  ok: boolean;
  message?: string;
  /** The builder's conform result: field errors and the values as typed (or as changed by a line button). */
  result?: SubmissionResult<string[]>;
  /** The message being written, kept when it is refused. */
  body?: string;
}

const reply = (payload: ActionResult, status = 200) => data(payload, { status });
/** The Spanish sentence of a refusal, for the notice above the page or next to a form. */
const refusalText = (failure: Failure) => failureMessages(failure).formErrors.join(" ");

const BUILDER_INTENTS = ["guardar", "previa", "enviar"];
const SENT_NOTICE = "Cotización enviada. El cliente recibirá un correo con el enlace para verla, aceptarla o rechazarla.";
const SAVED_NOTICE = "Borrador guardado. Los totales son los que calculó el servidor.";
const UNCHANGED_NOTICE = "No había cambios: el borrador ya estaba guardado.";

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "cotizaciones");
  const actor = { id: staff.id, name: staff.name };
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");

  // The builder form. A line button (conform's "__intent__") only changes the posted lines and
  // comes back with them, unsaved; the three submit buttons save the draft first.
  if (formData.has("__intent__") || BUILDER_INTENTS.includes(intent)) {
    const parsed = parseWithZod(formData, { schema: QuoteBuilderSchema });
    if (parsed.status !== "success") return reply({ intent: "borrador", ok: false, result: parsed.reply() }, parsed.status === "error" ? 400 : 200);
    const { intent: builderIntent, ...draft } = parsed.value;
    const saved = await saveQuoteDraft(params.id, { ...draft, intent: builderIntent === "enviar" ? "enviar" : "guardar" }, actor);
    if (!saved.ok) {
      if (saved.kind === "not-found") notFound(request);
      const refused = replyToFailure(parsed, saved);
      return reply({ intent: "borrador", ok: false, message: refusalText(saved), result: refused.result }, refused.status);
    }
    if (builderIntent === "previa") throw redirect(`/admin/cotizaciones/${params.id}?vista=previa`);
    if (builderIntent === "enviar") {
      // Saving and sending are two commands; when sending is refused the draft stays saved and editable.
      const sent = await sendQuote(params.id, actor);
      if (!sent.ok) {
        const message = `Guardamos el borrador, pero no se envió: ${refusalText(sent)}`;
        return reply({ intent: "borrador", ok: false, message, result: parsed.reply({ formErrors: [message] }) }, failureStatus(sent));
      }
      throw redirect(`/admin/cotizaciones/${params.id}?enviada=1`);
    }
    return reply({ intent: "guardar", ok: true, message: saved.value.changed ? SAVED_NOTICE : UNCHANGED_NOTICE, result: parsed.reply() });
  }

  if (intent === "mensaje") {
    const parsed = QuoteMessageSchema.safeParse(Object.fromEntries(formData));
    const body = String(formData.get("body") ?? "");
    if (!parsed.success) return reply({ intent, ok: false, message: parsed.error.issues[0]?.message ?? "Escriba su mensaje.", body }, 400);
    const result = await addQuoteMessage(params.id, actor, { body: parsed.data.body, fromStaff: true });
    if (!result.ok) {
      if (result.kind === "not-found") notFound(request);
      return reply({ intent, ok: false, message: refusalText(result), body }, failureStatus(result));
    }
    return reply({ intent, ok: true, message: "Mensaje enviado; el cliente recibirá un aviso por correo." });
  }

  const commands: Record<string, { run: () => Promise<Result<unknown>>; done: string }> = {
    "enviar-borrador": { run: () => sendQuote(params.id, actor), done: SENT_NOTICE },
    revisar: { run: () => reviseQuote(params.id, actor), done: "Revisión nueva creada a partir de la enviada. Edítela y envíela; el cliente sigue viendo la anterior hasta entonces." },
    cancelar: { run: () => cancelQuote(params.id, actor), done: "Cotización cancelada." },
  };
  const command = commands[intent];
  if (!command) return reply({ intent, ok: false, message: "No reconocimos esa acción. Recargue la página e intente de nuevo." }, 400);
  const result = await command.run();
  if (!result.ok) {
    if (result.kind === "not-found") notFound(request);
    return reply({ intent, ok: false, message: refusalText(result) }, failureStatus(result));
  }
  // After sending, a fresh GET: the address loses "?vista=previa" and a reload sends nothing twice.
  if (intent === "enviar-borrador") throw redirect(`/admin/cotizaciones/${params.id}?enviada=1`);
  return reply({ intent, ok: true, message: command.done });
}

export default function AdminQuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, current, revisions, events, messages, comparisons, preview, justSent, now } = loaderData;
  // Every form posts to the bare address, so "?vista=previa" or "?enviada=1" do not linger after an action.
  const here = `/admin/cotizaciones/${quote.id}`;
  // Live: the customer's acceptance, rejection or message reloads this page's data; the builder
  // and the reply keep what is being typed (neither is keyed by the data that changes).
  const notices = useLiveQuote({ id: quote.id, status: quote.status, revision: current.revision }, "staff");
  // The lifecycle table decides which commands this page offers; the domain refuses by the same table.
  const actions = allowedActions({ status: quote.status, who: "staff", newestSent: Boolean(current.sentAt) });
  const editable = actions.includes("guardar");
  const sent = quote.sentRevision ? revisions.find((revision) => revision.revision === quote.sentRevision) : undefined;
  const validity = staffQuoteValidity(quote, now);
  const savedNotice = useSavedNotice(actionData);
  // Builder and message results show next to their forms; the state commands report up here, and so
  // does a refused save when the builder is gone (a stale tab posting to a quote already sent).
  const notice =
    actionData?.message && (!["borrador", "guardar", "mensaje"].includes(actionData.intent) || (actionData.intent === "borrador" && !editable)) ? (
      actionData.ok ? (
        <FormNotice>{actionData.message}</FormNotice>
      ) : (
        <FormErrors errors={[actionData.message]} id="error-accion" />
      )
    ) : null;

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <StaffQuoteHeader quote={quote} currentRevision={current.revision} editable={editable} />

      <div className="mt-4 space-y-2" aria-live="polite">
        {notice}
        {justSent && !actionData && quote.sentRevision ? <FormNotice>{SENT_NOTICE}</FormNotice> : null}
      </div>

      {editable && preview ? <StaffQuotePreview quote={quote} draft={current} action={here} /> : null}

      {editable && !preview ? (
        <section aria-labelledby="constructor" className="mt-6">
          <h2 id="constructor" className="text-xl font-semibold text-acero-900">
            {quote.sentRevision ? `Revisión ${current.revision} (borrador)` : "Borrador"}
          </h2>
          {quote.sentRevision ? (
            <p className="mt-1 text-sm text-acero-700">
              El cliente sigue viendo la revisión {quote.sentRevision} hasta que envíe esta. Al enviarla, la vigencia empieza de nuevo.
            </p>
          ) : null}
          <div className="mt-4">
            <QuoteBuilder
              key={current.id}
              formId={`cotizacion-${current.id}`}
              action={here}
              defaults={builderDefaults(quote, current)}
              lastResult={actionData?.intent === "borrador" || actionData?.intent === "guardar" ? actionData.result : undefined}
              notice={savedNotice ? <FormNotice>{savedNotice}</FormNotice> : null}
            />
          </div>
        </section>
      ) : null}

      <div className="mt-8 grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          <StaffQuoteRecord quote={quote} sent={sent} validity={validity} />
          <StaffQuoteMessages messages={messages} sentRevision={quote.sentRevision} action={here} reply={actionData?.intent === "mensaje" ? actionData : undefined} />
          <StaffQuoteRevisions revisions={revisions} comparisons={comparisons} sentRevision={quote.sentRevision} />
        </div>

        <div className="space-y-6">
          <StaffQuoteStatus
            quote={quote}
            currentRevision={current.revision}
            validity={validity}
            canRevise={actions.includes("revisar")}
            canCancel={actions.includes("cancelar")}
            action={here}
          />
          <StaffPanel title="Historial" id="seccion-historial">
            <QuoteHistory events={events} />
            <p className="mt-3 text-xs text-acero-600">Hora de la Ciudad de México.</p>
          </StaffPanel>
        </div>
      </div>
      <LiveNotices notices={notices} />
    </main>
  );
}

/**
 * "Borrador guardado", shown under the builder's buttons until the next post or navigation. Saving
 * changes the quote's record, whose live event reloads this page's data, and a reload drops the
 * action's answer: the notice is kept here so that it does not vanish a moment after it appears.
 */
function useSavedNotice(actionData: ActionResult | undefined): string | undefined {
  const location = useLocation();
  const navigation = useNavigation();
  const fresh = actionData?.intent === "guardar" && actionData.ok ? actionData.message : undefined;
  const [kept, setKept] = useState<{ key: string; message: string } | null>(null);
  useEffect(() => {
    // No answer means a reload of the data (live), not a new post: keep what was said.
    if (actionData === undefined) return;
    setKept(fresh ? { key: location.key, message: fresh } : null);
  }, [actionData, fresh, location.key]);
  // Cleared while the next post is on its way, so that its own answer is announced afresh.
  if (navigation.state === "submitting") return undefined;
  return fresh ?? (kept?.key === location.key ? kept.message : undefined);
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
