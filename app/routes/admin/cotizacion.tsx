import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, data, redirect, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/cotizacion";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice, SubmitButton } from "~/components/ui/form";
import { requireStaff } from "~/features/accounts/guards.server";
import { builderDefaults, QuoteBuilder, QuoteBuilderSchema } from "~/features/quotes/components/quote-builder";
import { QuoteDocument } from "~/features/quotes/components/quote-document";
import { QuoteHistory } from "~/features/quotes/components/quote-history";
import { QuoteLinesTable, QuoteTotals } from "~/features/quotes/components/quote-lines";
import { QuoteMessageThread } from "~/features/quotes/components/quote-messages";
import { QuoteStatusPill, quoteStatusLabel } from "~/features/quotes/components/quote-status-pill";
import { RevisionComparison } from "~/features/quotes/components/revision-comparison";
import { saveQuoteDraft } from "~/features/quotes/draft.server";
import { cancelQuote, reviseQuote, sendQuote } from "~/features/quotes/lifecycle.server";
import { addQuoteMessage } from "~/features/quotes/messages.server";
import { getQuoteForStaff } from "~/features/quotes/read.server";
import { allowedActions } from "~/features/quotes/states";
import { QuoteMessageSchema } from "~/features/quotes/forms";
import { notFound } from "~/lib/errors";
import { formatDate, formatDateTime, formatMoney } from "~/lib/format";
import { replyToFailure } from "~/lib/form-reply";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Failure, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: loaderData ? `${loaderData.quote.number} · Cotizaciones` : "Cotización",
    description: "Detalle de una cotización.",
    noindex: true,
  });

// The same page is the builder while the newest revision is an unsent draft, and the detail otherwise.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(requestMeta(request, context));
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

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  const actor = { id: staff.id, name: staff.name };
  const formData = await request.formData();
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
    return reply({ intent: "guardar", ok: true, message: "Borrador guardado. Los totales son los que calculó el servidor.", result: parsed.reply() });
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

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";
const DAY_MS = 24 * 60 * 60 * 1000;

function Section({ title, id, children, className = "" }: { title: string; id: string; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`rounded-lg border border-acero-200 bg-white p-5 ${className}`}>
      <h2 id={id} className="text-lg font-semibold text-acero-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm font-semibold text-acero-700">{label}</dt>
      <dd className="mt-0.5 text-acero-900">{children ?? <span className="text-acero-600">—</span>}</dd>
    </div>
  );
}

const days = (value: number) => `${value} ${value === 1 ? "día hábil" : "días hábiles"}`;

export default function AdminQuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, current, revisions, events, messages, comparisons, preview, justSent, now } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Every form posts to the bare address, so "?vista=previa" or "?enviada=1" do not linger after an action.
  const here = `/admin/cotizaciones/${quote.id}`;
  // The lifecycle table decides which commands this page offers; the domain refuses by the same table.
  const actions = allowedActions({ status: quote.status, who: "staff", newestSent: Boolean(current.sentAt) });
  const editable = actions.includes("guardar");
  const sent = quote.sentRevision ? revisions.find((revision) => revision.revision === quote.sentRevision) : undefined;
  const canRevise = actions.includes("revisar");
  const canCancel = actions.includes("cancelar");
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

  const validity = (() => {
    if (!quote.validUntil) return null;
    const until = new Date(quote.validUntil);
    switch (quote.status) {
      case "vencida":
        return <>Vencida el {formatDate(until)}</>;
      case "enviada": {
        const left = Math.ceil((until.getTime() - new Date(now).getTime()) / DAY_MS);
        return (
          <>
            Vence el {formatDate(until)} ({left <= 1 ? "menos de un día" : `en ${left} días`})
          </>
        );
      }
      case "cancelada":
        return <>Sin efecto: se canceló{quote.cancelledAt ? ` el ${formatDate(quote.cancelledAt)}` : ""}</>;
      default:
        return <>Válida hasta el {formatDate(until)}</>;
    }
  })();

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/cotizaciones" className={linkClass}>
          ← Cotizaciones
        </AppLink>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-acero-900">{quote.number}</h1>
        <QuoteStatusPill status={quote.status} />
        {editable && quote.sentRevision ? <span className="text-sm text-acero-700">· preparando la revisión {current.revision}</span> : null}
      </div>
      <p className="mt-1 text-acero-700">
        {quote.customerName ? <strong className="text-acero-900">{quote.customerName}</strong> : "Cliente sin capturar"}
        {quote.customerCompany ? ` (${quote.customerCompany})` : ""}
        {quote.customerEmail ? ` · ${quote.customerEmail}` : ""} · creada el {formatDateTime(quote.createdAt)}
      </p>
      <p className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {quote.solicitudId ? (
          <AppLink to={`/admin/formularios/${quote.solicitudId}`} className={linkClass}>
            Ver la solicitud de origen
          </AppLink>
        ) : null}
        {quote.sentRevision ? (
          <a href={`/quotes/${quote.id}/pdf`} className={linkClass}>
            Abrir el PDF (revisión {quote.sentRevision})
          </a>
        ) : null}
      </p>

      <div className="mt-4 space-y-2" aria-live="polite">
        {notice}
        {justSent && !actionData && quote.sentRevision ? <FormNotice>{SENT_NOTICE}</FormNotice> : null}
      </div>

      {editable && preview ? (
        <section aria-labelledby="vista-previa" className="mt-6 space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 id="vista-previa" className="text-xl font-semibold text-acero-900">
                Vista previa: así la verá el cliente
              </h2>
              <p className="text-sm text-acero-700">Borrador guardado de la revisión {current.revision}; todavía no se ha enviado.</p>
            </div>
            <AppLink to={`/admin/cotizaciones/${quote.id}`} className="btn-secondary py-2 text-sm">
              Volver a editar
            </AppLink>
          </div>
          <QuoteDocument
            number={quote.number}
            revision={current.revision}
            customer={{ name: quote.customerName, company: quote.customerCompany, email: quote.customerEmail }}
            lines={current.lines}
            subtotalCentavos={current.subtotalCentavos}
            ivaCentavos={current.ivaCentavos}
            totalCentavos={current.totalCentavos}
            leadTimeDays={current.leadTimeDays}
            validity={`${current.validityDays} días a partir del envío`}
            terms={current.terms}
            headingLevel={3}
          />
          <Form method="post" action={here} className="flex flex-wrap items-center gap-3">
            <SubmitButton intent="enviar-borrador" pendingLabel="Enviando…" className="btn-primary">
              Enviar al cliente
            </SubmitButton>
            <span className="text-sm text-acero-700">Se envía tal como se ve aquí, con un correo al cliente.</span>
          </Form>
        </section>
      ) : null}

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
            />
          </div>
          {actionData?.intent === "guardar" && actionData.ok ? (
            <div className="mt-4">
              <FormNotice>{actionData.message}</FormNotice>
            </div>
          ) : null}
        </section>
      ) : null}

      <div className="mt-8 grid gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          {sent ? (
            <Section title={`Revisión enviada (${sent.revision})`} id="seccion-enviada">
              <dl className="mb-4 grid gap-4 sm:grid-cols-3">
                <Field label="Enviada">{sent.sentAt ? formatDateTime(sent.sentAt) : null}</Field>
                <Field label="Vigencia">{validity}</Field>
                <Field label="Plazo de entrega">{days(sent.leadTimeDays)}</Field>
              </dl>
              <QuoteLinesTable lines={sent.lines} caption={`Partidas de la revisión ${sent.revision}`} />
              <QuoteTotals subtotalCentavos={sent.subtotalCentavos} ivaCentavos={sent.ivaCentavos} totalCentavos={sent.totalCentavos} className="mt-4" />
              {sent.terms ? (
                <details className="mt-4 text-sm">
                  <summary className="cursor-pointer font-semibold text-acero-800">Términos y condiciones</summary>
                  <p className="mt-2 whitespace-pre-wrap text-acero-900">{sent.terms}</p>
                </details>
              ) : null}
              {sent.notes ? (
                <div className="mt-4 rounded-md bg-acero-50 p-3 text-sm">
                  <p className="font-semibold text-acero-800">Notas internas</p>
                  <p className="mt-1 whitespace-pre-wrap text-acero-900">{sent.notes}</p>
                </div>
              ) : null}
            </Section>
          ) : null}

          {quote.acceptedAt ? (
            <Section title="Aceptación del cliente" id="seccion-aceptacion">
              <dl className="grid gap-4 sm:grid-cols-2">
                <Field label="Firmó como">
                  <span className="font-semibold">{quote.acceptedName}</span>
                </Field>
                <Field label="Fecha y hora">{formatDateTime(quote.acceptedAt)} (hora de la Ciudad de México)</Field>
                <Field label="Dirección IP">{quote.acceptedIp}</Field>
                <Field label="Navegador" wide>
                  {quote.acceptedUserAgent ? <span className="text-sm break-all">{quote.acceptedUserAgent}</span> : null}
                </Field>
              </dl>
            </Section>
          ) : null}

          {quote.rejectedAt ? (
            <Section title="Rechazo del cliente" id="seccion-rechazo">
              <dl className="grid gap-4 sm:grid-cols-2">
                <Field label="Motivo">{quote.rejectedReason}</Field>
                <Field label="Fecha y hora">{formatDateTime(quote.rejectedAt)} (hora de la Ciudad de México)</Field>
                <Field label="Comentario del cliente" wide>
                  {quote.rejectedNote ? <span className="whitespace-pre-wrap">{quote.rejectedNote}</span> : null}
                </Field>
              </dl>
            </Section>
          ) : null}

          <Section title="Mensajes con el cliente" id="seccion-mensajes">
            <QuoteMessageThread messages={messages} emptyText="Todavía no hay mensajes en esta cotización." />
            {quote.sentRevision === null ? (
              <p className="mt-4 text-sm text-acero-700">Podrá escribirle al cliente cuando le envíe la cotización; antes no puede verla.</p>
            ) : (
              <Form method="post" action={here} className="mt-4 space-y-3" key={messages.length}>
                <label htmlFor="mensaje" className="block text-sm font-semibold text-acero-900">
                  Responder al cliente
                </label>
                <textarea
                  id="mensaje"
                  name="body"
                  rows={4}
                  maxLength={5000}
                  required
                  defaultValue={actionData?.intent === "mensaje" && !actionData.ok ? actionData.body : ""}
                  aria-invalid={actionData?.intent === "mensaje" && !actionData.ok ? true : undefined}
                  aria-describedby={actionData?.intent === "mensaje" && !actionData.ok ? "mensaje-error mensaje-ayuda" : "mensaje-ayuda"}
                  className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
                />
                <p id="mensaje-ayuda" className="text-xs text-acero-600">
                  El cliente lo ve en su página de la cotización y recibe un aviso por correo.
                </p>
                {actionData?.intent === "mensaje" ? (
                  actionData.ok ? (
                    <FormNotice>{actionData.message}</FormNotice>
                  ) : (
                    <FormErrors errors={[actionData.message ?? "Escriba su mensaje."]} id="mensaje-error" />
                  )
                ) : null}
                <SubmitButton intent="mensaje" pendingLabel="Enviando…" className="btn-dark py-2">
                  Enviar mensaje
                </SubmitButton>
              </Form>
            )}
          </Section>

          <Section title="Revisiones" id="seccion-revisiones">
            <ol className="space-y-3">
              {[...revisions].reverse().map((revision) => (
                <li key={revision.id} className="rounded-md border border-acero-200 p-3 text-sm">
                  <p className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="font-semibold text-acero-900">Revisión {revision.revision}</span>
                    <span className="text-acero-800">
                      {revision.sentAt ? `Enviada el ${formatDateTime(revision.sentAt)}` : "Borrador sin enviar"} · total {formatMoney(revision.totalCentavos)} (IVA incluido)
                    </span>
                  </p>
                  {revision.sentAt && revision.revision !== quote.sentRevision ? (
                    <details className="mt-2">
                      <summary className="cursor-pointer font-medium text-forja-700">Ver las partidas de la revisión {revision.revision}</summary>
                      <div className="mt-2">
                        <QuoteLinesTable lines={revision.lines} caption={`Partidas de la revisión ${revision.revision}`} />
                        <QuoteTotals subtotalCentavos={revision.subtotalCentavos} ivaCentavos={revision.ivaCentavos} totalCentavos={revision.totalCentavos} className="mt-3" />
                        <p className="mt-2 text-acero-700">Plazo de entrega: {days(revision.leadTimeDays)}</p>
                      </div>
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
            {comparisons.length ? (
              <div className="mt-5 space-y-4">
                <h3 className="font-semibold text-acero-900">Qué cambió entre revisiones enviadas</h3>
                {[...comparisons].reverse().map((comparison) => (
                  <RevisionComparison key={`${comparison.previous}-${comparison.revision}`} comparison={comparison} headingLevel={4} />
                ))}
              </div>
            ) : quote.sentRevision ? (
              <p className="mt-3 text-sm text-acero-700">La comparación aparece cuando se envía una segunda revisión.</p>
            ) : null}
          </Section>
        </div>

        <div className="space-y-6">
          <Section title="Estado" id="seccion-estado">
            <p className="flex flex-wrap items-center gap-2 text-acero-800">
              Estado actual: <QuoteStatusPill status={quote.status} />
            </p>
            {validity ? <p className="mt-2 text-sm text-acero-800">{validity}</p> : null}
            <div className="mt-4 space-y-3">
              {canRevise ? (
                <Form method="post" action={here}>
                  <button type="submit" name="intent" value="revisar" className="btn-dark w-full py-2" disabled={busy}>
                    Crear revisión
                  </button>
                  <p className="mt-1 text-xs text-acero-600">Copia la revisión {current.revision} en un borrador nuevo para cambiar precios, partidas o plazo.</p>
                </Form>
              ) : null}
              {canCancel ? (
                <details className="rounded-md border border-red-200 p-3">
                  <summary className="cursor-pointer text-sm font-semibold text-red-800">Cancelar cotización…</summary>
                  <Form method="post" action={here} className="mt-3 space-y-2">
                    <p className="text-sm text-acero-800">
                      {quote.status === "enviada"
                        ? "El cliente ya no podrá aceptarla. Esta acción no se deshace."
                        : quote.status === "vencida"
                          ? "La cotización vencida queda archivada como cancelada. Esta acción no se deshace."
                          : "El borrador queda archivado como cancelado. Esta acción no se deshace."}
                    </p>
                    <button type="submit" name="intent" value="cancelar" className="btn w-full bg-red-700 py-2 text-white hover:bg-red-800" disabled={busy}>
                      Sí, cancelar {quote.number}
                    </button>
                  </Form>
                </details>
              ) : null}
              {!canRevise && !canCancel ? (
                <p className="text-sm text-acero-700">«{quoteStatusLabel(quote.status)}» es un estado final: la cotización ya no cambia.</p>
              ) : null}
            </div>
          </Section>

          <Section title="Historial" id="seccion-historial">
            <QuoteHistory events={events} />
            <p className="mt-3 text-xs text-acero-600">Hora de la Ciudad de México.</p>
          </Section>
        </div>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
