import { data } from "react-router";
import type { Route } from "./+types/list";
import { AppLink } from "~/components/ui/app-link";
import { PageIntro } from "~/components/ui/page-intro";
import { TableScroll } from "~/components/ui/table-scroll";
import { resendConfirmation } from "~/features/accounts/email-confirmation.server";
import { requireUser } from "~/features/accounts/guards.server";
import { ConfirmEmailNotice } from "~/features/quotes/components/confirm-email-notice";
import { QuoteStatusPill } from "~/features/quotes/components/quote-status-pill";
import { ValidityCountdown } from "~/features/quotes/components/validity-countdown";
import { useLiveUpdates } from "~/lib/live/use-live-updates";
import { listQuotesForCustomer } from "~/features/quotes/list.server";
import { listWaitingRequestsForCustomer, type WaitingRequestStage } from "~/features/solicitudes/index.server";
import { formatDate, formatMoney } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Mis cotizaciones", description: "Sus cotizaciones de Forja.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  const now = new Date();
  const [quotes, requests] = await Promise.all([listQuotesForCustomer(user.id, now), listWaitingRequestsForCustomer(user.id)]);
  return {
    requests,
    now,
    // Quotes join an account by its confirmed email: until then, say so instead of "no quotes".
    unconfirmedEmail: user.emailVerified ? null : user.email,
    quotes: quotes.map(({ id, number, status, sentAt, validUntil, totalCentavos }) => ({ id, number, status, sentAt, validUntil, totalCentavos })),
  };
}

/** "Reenviar correo de confirmación": the accounts feature's resend, as on /cuenta. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(requestMeta(request, context));
  const intent = (await readForm(request)).get("intent");
  if (intent !== "resend") return data({ sent: null, error: "No reconocimos esa acción. Recargue la página e inténtelo de nuevo." }, { status: 400 });
  if (user.emailVerified) return { sent: "Su correo ya está confirmado.", error: null };
  const result = await resendConfirmation(user.email);
  if (!result.ok) return data({ sent: null, error: failureMessages(result).formErrors.join(" ") }, { status: failureStatus(result) });
  return { sent: `Le enviamos un correo nuevo de confirmación a ${user.email}. Abra el enlace y sus cotizaciones aparecerán aquí.`, error: null };
}

const STAGE_TEXT: Record<WaitingRequestStage, string> = {
  recibida: "Recibida: la revisaremos en breve",
  "en-revision": "En revisión por ingeniería",
  "en-preparacion": "Cotización en preparación",
};

/** The customer's quote requests that no sent quote answers yet, so a new request is not met with "no quotes". */
function WaitingRequests({ requests }: { requests: Route.ComponentProps["loaderData"]["requests"] }) {
  return (
    <section aria-labelledby="solicitudes-en-proceso">
      <h2 id="solicitudes-en-proceso" className="text-lg font-semibold text-acero-900">
        Solicitudes en proceso
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-acero-700">Cuando le enviemos la cotización de una solicitud, aparecerá en la lista de cotizaciones y le avisaremos por correo.</p>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {requests.map((request) => (
          <li key={request.id} className="rounded-lg border border-acero-200 bg-white p-4">
            <p className="font-semibold text-acero-900">Solicitud {request.number}</p>
            <p className="mt-1 text-sm text-acero-700">
              Enviada el {formatDate(request.createdAt)}
              {request.service ? ` · ${request.service}` : ""}
            </p>
            <p className="mt-2 text-sm font-medium text-forja-700">{STAGE_TEXT[request.stage]}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function QuotesListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { quotes, requests, now, unconfirmedEmail } = loaderData;
  // Live: the server sends only this customer's quotes; any change (status, a revision sent) reloads the list.
  useLiveUpdates(["cotizaciones/*"]);
  return (
    <>
      <PageIntro eyebrow="Mi cuenta" title="Mis cotizaciones" lead="Consulte, acepte o rechace las cotizaciones que Forja le envía." />
      <div className="container-page space-y-8 py-10">
        {unconfirmedEmail ? <ConfirmEmailNotice email={unconfirmedEmail} sent={actionData?.sent} error={actionData?.error} /> : null}
        {requests.length > 0 ? <WaitingRequests requests={requests} /> : null}
        {quotes.length === 0 && (unconfirmedEmail || requests.length > 0) ? null : quotes.length === 0 ? (
          <div className="rounded-lg border border-dashed border-acero-300 p-8 text-center">
            <h2 className="text-lg font-semibold text-acero-900">Aún no tiene cotizaciones</h2>
            <p className="mx-auto mt-2 max-w-xl text-acero-700">
              Cuando nuestro equipo le envíe una cotización aparecerá aquí, con su vigencia, sus partidas y la opción de aceptarla en línea. Si
              la recibió en otro correo, inicie sesión con esa dirección.
            </p>
            <AppLink to="/cotiza" className="btn-primary mt-6">
              Solicitar una cotización
            </AppLink>
          </div>
        ) : (
          <>
            <TableScroll label="Sus cotizaciones" className="rounded-lg border border-acero-200">
              <table className="min-w-full divide-y divide-acero-200 text-sm">
                <caption className="sr-only">Sus cotizaciones, la más reciente primero</caption>
                <thead className="bg-acero-50 text-left text-acero-800">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Cotización
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Enviada
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Estado
                    </th>
                    <th scope="col" className="px-4 py-3 text-right font-semibold">
                      Total <span className="font-normal">(MXN, IVA incluido)</span>
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Vigencia
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-acero-100 bg-white">
                  {quotes.map((quote) => (
                    <tr key={quote.id}>
                      <th scope="row" className="px-4 py-3 text-left font-semibold whitespace-nowrap">
                        <AppLink to={`/quotes/${quote.id}`} className="text-forja-700 underline underline-offset-2">
                          {quote.number}
                        </AppLink>
                      </th>
                      <td className="px-4 py-3 whitespace-nowrap text-acero-800">{quote.sentAt ? formatDate(quote.sentAt) : "—"}</td>
                      <td className="px-4 py-3">
                        <QuoteStatusPill status={quote.status} />
                      </td>
                      <td className="px-4 py-3 text-right font-medium whitespace-nowrap text-acero-900">{formatMoney(quote.totalCentavos)}</td>
                      <td className="px-4 py-3 text-acero-800">
                        <ValidityCountdown status={quote.status} validUntil={quote.validUntil} now={now} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <p className="mt-4 text-sm text-acero-600">
              ¿Necesita otra cosa?{" "}
              <AppLink to="/cotiza" className="font-semibold text-forja-700 underline underline-offset-2">
                Solicite una cotización nueva
              </AppLink>
              .
            </p>
          </>
        )}
      </div>
    </>
  );
}
