import type { ReactNode } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/formulario";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { requireStaff } from "~/features/accounts/guards.server";
import { applySolicitudAction } from "~/features/solicitudes/commands.server";
import { StatusPill } from "~/features/solicitudes/components/solicitud-badges";
import { openSolicitud, type SolicitudDetail } from "~/features/solicitudes/detail.server";
import { CERTIFICATE_OPTIONS, INDUSTRY_OPTIONS, SERVICE_OPTIONS, SOLICITUD_TYPES, SolicitudActionSchema, TOLERANCE_OPTIONS } from "~/features/solicitudes/forms";
import { allowedNextStatuses, statusLabel } from "~/features/solicitudes/states";
import { notFound } from "~/lib/errors";
import { formatDateTime, formatMoney, formatNumber } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: loaderData ? `${loaderData.solicitud.number} · Formularios` : "Formulario",
    description: "Detalle de un formulario recibido.",
    noindex: true,
  });

// Opening the page marks the solicitud as read (the first time only, with a history entry).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  const solicitud = await openSolicitud({ id: params.id, actor: staff });
  if (!solicitud) notFound(request);
  return { solicitud };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  const formData = await request.formData();
  const parsed = SolicitudActionSchema.safeParse(Object.fromEntries(formData));
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
const TIME_ZONE_NOTE = "Hora de la Ciudad de México.";

const optionLabel = (options: readonly { value: string; label: string }[], value: string | null | undefined) =>
  value ? (options.find((option) => option.value === value)?.label ?? value) : null;

const calendarDate = new Intl.DateTimeFormat("es-MX", { dateStyle: "long", timeZone: "UTC" });
const decimal = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });
const volume = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });

/** A date without time ("fecha requerida"): read as that calendar day, not as UTC midnight. */
function formatCalendarDate(value: string): string {
  return calendarDate.format(new Date(`${value}T00:00:00Z`));
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  if (bytes < 1024 * 1024) return `${decimal.format(bytes / 1024)} KB`;
  return `${decimal.format(bytes / (1024 * 1024))} MB`;
}

function whatsappHref(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (digits.length === 10) return `https://wa.me/52${digits}`;
  if (digits.length === 12 && digits.startsWith("52")) return `https://wa.me/${digits}`;
  return null;
}

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === "" || (Array.isArray(children) && children.length === 0);
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm font-semibold text-acero-700">{label}</dt>
      <dd className="mt-0.5 text-acero-900">{empty ? <span className="text-acero-600">—</span> : children}</dd>
    </div>
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-acero-200 bg-white p-5">
      <h2 id={id} className="text-lg font-semibold text-acero-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function EventText({ event }: { event: SolicitudDetail["events"][number] }) {
  switch (event.kind) {
    case "creado":
      return <>Formulario recibido</>;
    case "estado":
      return (
        <>
          Cambió el estado de «{statusLabel(event.fromStatus ?? "")}» a «{statusLabel(event.toStatus ?? "")}»
        </>
      );
    case "nota":
      return (
        <>
          Nota interna:
          <span className="mt-1 block rounded-md bg-acero-50 p-2 whitespace-pre-wrap text-acero-900">{event.note}</span>
        </>
      );
    case "leido":
      return <>Marcó como leído</>;
    case "no_leido":
      return <>Marcó como no leído</>;
    default:
      return <>{event.kind}</>;
  }
}

export default function AdminSolicitudPage({ loaderData, actionData }: Route.ComponentProps) {
  const { solicitud: s } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const feedback = (intent: string) =>
    actionData?.intent === intent ? actionData.ok ? <FormNotice>{actionData.message}</FormNotice> : <FormErrors errors={[actionData.message]} id={`error-${intent}`} /> : null;
  const isQuote = s.type === "cotizacion";
  // The state table decides which moves the staff are offered; the command refuses the others.
  const nextStatuses = allowedNextStatuses(s.status);
  const whatsapp = s.phone ? whatsappHref(s.phone) : null;

  return (
    <main id="contenido" className="p-6 sm:p-8">
      <p className="text-sm">
        <AppLink to="/admin/formularios" className={linkClass}>
          ← Formularios recibidos
        </AppLink>
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-acero-900">{s.number}</h1>
        <StatusPill status={s.status} />
      </div>
      <p className="mt-1 text-acero-700">
        {optionLabel(SOLICITUD_TYPES, s.type)} de <strong>{s.name}</strong>
        {s.company ? ` (${s.company})` : ""}; {isQuote ? "recibida" : "recibido"} el {formatDateTime(s.createdAt)}.
      </p>

      <div className="mt-6 grid gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          <Section title="Contacto" id="seccion-contacto">
            <dl className="grid gap-4 sm:grid-cols-2">
              <Field label="Nombre">{s.name}</Field>
              <Field label="Empresa">{s.company}</Field>
              <Field label="Correo electrónico">
                <a href={`mailto:${s.email}`} className={linkClass}>
                  {s.email}
                </a>
              </Field>
              <Field label="Teléfono o WhatsApp">
                {s.phone ? (
                  <span className="flex flex-wrap gap-3">
                    <a href={`tel:${s.phone.replace(/[^\d+]/g, "")}`} className={linkClass}>
                      {s.phone}
                    </a>
                    {whatsapp ? (
                      <a href={whatsapp} className={linkClass} rel="noopener noreferrer" target="_blank">
                        Abrir en WhatsApp
                      </a>
                    ) : null}
                  </span>
                ) : null}
              </Field>
              <Field label="Ciudad o estado">{s.city}</Field>
              <Field label="Cuenta en el sitio">
                {s.account ? (
                  <>
                    {s.account.name} ({s.account.email})
                  </>
                ) : (
                  "Sin cuenta vinculada"
                )}
              </Field>
            </dl>
          </Section>

          {isQuote || s.description ? (
            <Section title="Proyecto" id="seccion-proyecto">
              <dl className="grid gap-4 sm:grid-cols-2">
                <Field label="Industria">{optionLabel(INDUSTRY_OPTIONS, s.industry)}</Field>
                <Field label="Servicio">{optionLabel(SERVICE_OPTIONS, s.service)}</Field>
                <Field label="Descripción del proyecto" wide>
                  {s.description ? <span className="whitespace-pre-wrap">{s.description}</span> : null}
                </Field>
                <Field label="Cantidad">{s.quantity != null ? `${formatNumber(s.quantity)} ${s.quantity === 1 ? "pieza" : "piezas"}` : null}</Field>
                <Field label="Cantidades adicionales (precios por volumen)">
                  {s.extraQuantities.length ? s.extraQuantities.map((quantity) => formatNumber(quantity)).join(", ") : null}
                </Field>
                <Field label="Fecha requerida">{s.requiredBy ? formatCalendarDate(s.requiredBy) : "Sin fecha indicada"}</Field>
                <Field label="Material">{s.material}</Field>
                <Field label="Acabado">{s.finish}</Field>
                <Field label="Tolerancias">{optionLabel(TOLERANCE_OPTIONS, s.tolerance)}</Field>
                <Field label="¿Lleva roscas?">{s.threads == null ? null : s.threads ? "Sí" : "No"}</Field>
                <Field label="Certificados e inspección">
                  {s.certificates.length ? (
                    <ul className="list-inside list-disc">
                      {s.certificates.map((certificate) => (
                        <li key={certificate}>{optionLabel(CERTIFICATE_OPTIONS, certificate)}</li>
                      ))}
                    </ul>
                  ) : (
                    "Ninguno"
                  )}
                </Field>
              </dl>
            </Section>
          ) : null}

          {s.subject || s.message ? (
            <Section title="Mensaje" id="seccion-mensaje">
              <dl className="grid gap-4">
                <Field label="Asunto">{s.subject}</Field>
                <Field label="Mensaje">{s.message ? <span className="whitespace-pre-wrap">{s.message}</span> : null}</Field>
              </dl>
            </Section>
          ) : null}

          {isQuote || s.files.length ? (
            <Section title="Archivos" id="seccion-archivos">
              {s.files.length ? (
                <ul className="divide-y divide-acero-100">
                  {s.files.map((file) => (
                    <li key={file.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <span>
                        <span className="font-medium break-all text-acero-900">{file.originalName}</span>{" "}
                        <span className="text-sm text-acero-600">
                          ({file.kind.toUpperCase()}, {formatBytes(file.size)})
                        </span>
                      </span>
                      <a href={`/admin/formularios/${s.id}/archivos/${file.id}`} className={`${linkClass} text-sm`} download={file.originalName}>
                        Descargar<span className="sr-only"> {file.originalName}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-acero-700">No adjuntó archivos.</p>
              )}
            </Section>
          ) : null}

          {s.estimates.length ? (
            <Section title="Estimación instantánea" id="seccion-estimacion">
              <p className="text-sm text-acero-700">
                Calculada por el servidor a partir del archivo STL guardado. Es indicativa: la cotización formal la prepara el equipo.
              </p>
              <ul className="mt-3 space-y-3">
                {s.estimates.map((estimate) => (
                  <li key={estimate.fileId} className="rounded-md border border-acero-200 p-3">
                    <p className="font-medium break-all text-acero-900">{estimate.fileName}</p>
                    <dl className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
                      <Field label="Volumen">{volume.format(estimate.volumeMm3 / 1000)} cm³</Field>
                      <Field label="Caja envolvente">
                        {decimal.format(estimate.bbox.x)} × {decimal.format(estimate.bbox.y)} × {decimal.format(estimate.bbox.z)} mm
                      </Field>
                      <Field label="Malla">
                        {estimate.closed
                          ? `Cerrada (${formatNumber(estimate.triangles)} triángulos)`
                          : `No está cerrada (${formatNumber(estimate.triangles)} triángulos): el volumen es aproximado`}
                      </Field>
                      <Field label="Precio indicativo">
                        {estimate.price ? (
                          <>
                            {formatMoney(estimate.price.minCentavos)} – {formatMoney(estimate.price.maxCentavos)} MXN, IVA incluido
                            <span className="block text-acero-600">{optionLabel(SERVICE_OPTIONS, estimate.price.service)}</span>
                          </>
                        ) : (
                          "Sin regla de precio para el servicio elegido"
                        )}
                      </Field>
                    </dl>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          <Section title="Confidencialidad y registro" id="seccion-registro">
            <dl className="grid gap-4 sm:grid-cols-2">
              <Field label="Acuerdo de confidencialidad">
                {s.ndaVersion ? (
                  <>
                    Aceptado: versión {s.ndaVersion}
                    {s.ndaAcceptedAt ? <span className="block text-sm text-acero-700">el {formatDateTime(s.ndaAcceptedAt)}</span> : null}
                  </>
                ) : (
                  "No lo solicitó"
                )}
              </Field>
              <Field label="Aviso de privacidad">Aceptado el {formatDateTime(s.privacyAcceptedAt)}</Field>
              <Field label="Recibido">{formatDateTime(s.createdAt)}</Field>
              <Field label="Dirección IP">{s.ip}</Field>
              <Field label="Navegador" wide>
                {s.userAgent ? <span className="text-sm break-all">{s.userAgent}</span> : null}
              </Field>
            </dl>
            <p className="mt-3 text-xs text-acero-600">{TIME_ZONE_NOTE}</p>
          </Section>
        </div>

        <div className="space-y-6">
          {isQuote ? (
            <Section title="Cotización" id="seccion-cotizacion">
              <Form method="post" action={`/admin/cotizaciones/nueva?solicitud=${s.id}`}>
                <input type="hidden" name="solicitud" value={s.id} />
                <p className="text-sm text-acero-700">
                  Crea un borrador con el cliente y la descripción de esta solicitud, y la marca como «Cotizado».
                </p>
                <button type="submit" className="btn-primary mt-3 w-full py-2" disabled={busy}>
                  Crear cotización
                </button>
              </Form>
            </Section>
          ) : null}

          <Section title="Estado" id="seccion-estado">
            <p className="flex items-center gap-2 text-acero-800">
              Estado actual: <StatusPill status={s.status} />
            </p>
            {feedback("estado")}
            {nextStatuses.length ? (
              <Form method="post" className="mt-4 space-y-3">
                <label htmlFor="nuevo-estado" className="block text-sm font-semibold text-acero-900">
                  Cambiar a
                </label>
                <select
                  id="nuevo-estado"
                  name="status"
                  required
                  defaultValue={nextStatuses[0]}
                  className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
                  aria-describedby={actionData?.intent === "estado" && !actionData.ok ? "error-estado" : undefined}
                >
                  {nextStatuses.map((status) => (
                    <option key={status} value={status}>
                      {statusLabel(status)}
                    </option>
                  ))}
                </select>
                <button type="submit" name="intent" value="estado" className="btn-dark w-full py-2" disabled={busy}>
                  Cambiar estado
                </button>
              </Form>
            ) : (
              <p className="mt-3 text-sm text-acero-700">«{statusLabel(s.status)}» es un estado final; ya no cambia.</p>
            )}
          </Section>

          <Section title="Nota interna" id="seccion-nota">
            <Form method="post" className="space-y-3" key={s.events.length}>
              <label htmlFor="nota" className="block text-sm font-semibold text-acero-900">
                Nota para el equipo
              </label>
              <textarea
                id="nota"
                name="note"
                rows={4}
                maxLength={5000}
                required
                defaultValue={actionData?.intent === "nota" && !actionData.ok ? actionData.note : ""}
                aria-describedby="nota-ayuda"
                aria-invalid={actionData?.intent === "nota" && !actionData.ok ? true : undefined}
                className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
              />
              <p id="nota-ayuda" className="text-xs text-acero-600">
                Solo la ve el personal; queda en el historial con su nombre.
              </p>
              {feedback("nota")}
              <button type="submit" name="intent" value="nota" className="btn-dark w-full py-2" disabled={busy}>
                Guardar nota
              </button>
            </Form>
          </Section>

          <Section title="Historial" id="seccion-historial">
            {s.events.length ? (
              <ol className="space-y-3">
                {[...s.events].reverse().map((event) => (
                  <li key={event.id} className="border-l-2 border-acero-200 pl-3 text-sm">
                    <p className="text-acero-900">
                      <EventText event={event} />
                    </p>
                    <p className="text-xs text-acero-600">
                      {formatDateTime(event.createdAt)}
                      {event.actorName ? ` · ${event.actorName}` : ""}
                    </p>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-sm text-acero-700">Sin movimientos todavía.</p>
            )}
          </Section>

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

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
