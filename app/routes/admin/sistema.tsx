import { Form, data, useNavigation } from "react-router";
import type { Route } from "./+types/sistema";
import { SystemStatusPanel } from "~/components/admin/system-status-panel";
import { SETTINGS_FIELDS, SystemSettingsForm, fixedBy } from "~/components/admin/system-settings-form";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice, SubmitButton } from "~/components/ui/form";
import { TableScroll } from "~/components/ui/table-scroll";
import { sendTestEmail } from "~/features/accounts/index.server";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { formatCount, formatDateTime, formatFileSize } from "~/lib/format";
import { readForm } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { z } from "~/lib/zod";
import { BackupBusyError, activeBackup, backupExists, createBackup, listBackups } from "~/services/backups/backups.server";
import { backupDestination } from "~/services/backups/destination.server";
import { startRestore } from "~/services/backups/restore.server";
import { cronJobStatuses, runCronJobNow } from "~/services/jobs/cron-runs.server";
import { recentLogErrors } from "~/services/logs/log-queries.server";
import { outboxSummary, retryFailedMail } from "~/services/mail/outbox.server";
import { testS3Connection } from "~/services/settings/s3-settings.server";
import { patchSettings, settingsView } from "~/services/settings/settings.server";
import { RATE_LIMIT_LABELS, RateLimitRuleSchema } from "~/services/security/rate-limit-settings";

// /admin/sistema (issue 17 §3, docs/decisions/0058): health, backups (create, download, restore
// after a confirmation), the scheduled jobs, recent errors, the mail queue and the technical
// settings with a test email. Role admin only; loaders and actions call the services directly.

export const meta: Route.MetaFunction = () => pageMeta({ title: "Sistema", description: "Estado, respaldos, tareas programadas, correo y ajustes técnicos.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "sistema");
  const [backups, destination, crons, errors, outbox, settings] = await Promise.all([listBackups(), backupDestination(), cronJobStatuses(), recentLogErrors(20), outboxSummary(), settingsView()]);
  const restoreKey = new URL(request.url).searchParams.get("restaurar");
  const restoreCandidate = restoreKey ? (backups.find((backup) => backup.key === restoreKey) ?? null) : null;
  const { fixedByEnvironment, ...values } = settings;
  return {
    backups,
    backupsBucket: destination.bucket,
    busy: activeBackup(),
    restoreCandidate,
    crons,
    errors: errors.map((entry) => ({ id: entry.id, created: entry.created, message: entry.message, level: entry.level, detail: typeof entry.data.error === "string" ? entry.data.error : typeof entry.data.err === "string" ? entry.data.err : "" })),
    outbox,
    settings: values,
    fixed: fixedByEnvironment as Record<string, string>,
  };
}

type ActionAnswer = { intent: string; notice?: string; error?: string; submitted?: Record<string, string>; fieldErrors?: Record<string, string[]> };

const answer = (intent: string, body: Omit<ActionAnswer, "intent">, status = 200) => data<ActionAnswer>({ intent, ...body }, { status });
const TestEmailSchema = z.object({ email: z.email({ error: "Escriba un correo válido para recibir la prueba, por ejemplo usted@suempresa.mx." }) });
const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

async function saveSettings(formData: FormData) {
  const { fixedByEnvironment } = await settingsView();
  const patch: Record<string, Record<string, unknown>> = {};
  const submitted: Record<string, string> = {};
  for (const field of SETTINGS_FIELDS) {
    if (fixedBy(fixedByEnvironment as Record<string, string>, field.path)) continue;
    const names = field.path.split(".");
    const raw = formData.get(field.path);
    const text = typeof raw === "string" ? raw : "";
    let value: unknown = text;
    if (field.kind === "checkbox") value = raw !== null;
    else if (field.kind === "number") value = NUMBER.test(text) ? Number(text) : text;
    submitted[field.path] = field.kind === "checkbox" ? (raw !== null ? "on" : "") : field.kind === "password" ? "" : text;
    let node: Record<string, unknown> = patch;
    for (const name of names.slice(0, -1)) node = (node[name] ??= {}) as Record<string, unknown>;
    node[names.at(-1)!] = value;
  }
  // The form names each rate limit by its label; the settings keep PocketBase's list of rules.
  const limits = patch.rateLimits as { rules?: Record<string, Record<string, unknown>> } | undefined;
  if (limits?.rules) limits.rules = RATE_LIMIT_LABELS.map((label) => ({ label, ...limits.rules![label], audience: "" })) as unknown as Record<string, Record<string, unknown>>;
  const result = await patchSettings(patch);
  if (result.ok) return answer("ajustes", { notice: "Ajustes guardados. Ya aplican en todo el sitio." });
  const messages = failureMessages(result);
  // The settings name an error of the rules' list as a whole: each rule is checked again here, so
  // the message lands on the field that holds the wrong value.
  if (messages.fieldErrors["rateLimits.rules"] && Array.isArray(limits?.rules)) {
    for (const rule of limits.rules as unknown as Record<string, unknown>[]) {
      const checked = RateLimitRuleSchema.safeParse(rule);
      if (!checked.success) for (const issue of checked.error.issues) (messages.fieldErrors[`rateLimits.rules.${String(rule.label)}.${String(issue.path[0])}`] ??= []).push(issue.message);
    }
  }
  return answer(
    "ajustes",
    { submitted, fieldErrors: messages.fieldErrors, error: messages.formErrors.length ? messages.formErrors.join(" ") : "No guardamos los ajustes: revise los campos marcados." },
    failureStatus(result),
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "sistema");
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const key = String(formData.get("key") ?? "");
  if (intent === "respaldar") {
    try {
      const backup = await createBackup();
      return answer(intent, { notice: `Respaldo ${backup.key} creado (${formatFileSize(backup.size)}).` });
    } catch (error) {
      if (error instanceof BackupBusyError) return answer(intent, { error: "Ya hay un respaldo o una restauración en curso. Espere a que termine e intente de nuevo." }, 409);
      throw error;
    }
  }
  if (intent === "restaurar") {
    if (activeBackup()) return answer(intent, { error: "Ya hay un respaldo o una restauración en curso. Espere a que termine e intente de nuevo." }, 409);
    if (!(await backupExists(key))) return answer(intent, { error: "No encontramos ese respaldo. Recargue la página." }, 404);
    startRestore(key, { by: staff.id });
    return answer(intent, { notice: `La restauración de ${key} empezó. El sitio queda en mantenimiento unos momentos y vuelve solo, con los datos del respaldo.` });
  }
  if (intent === "ejecutar") {
    if (!runCronJobNow(key)) return answer(intent, { error: "No encontramos esa tarea programada. Recargue la página." }, 404);
    return answer(intent, { notice: `La tarea «${key}» se está ejecutando. Recargue la página en un momento para ver el resultado.` });
  }
  if (intent === "reintentar") {
    const count = await retryFailedMail();
    return answer(intent, { notice: count === 0 ? "No hay correos fallidos que reintentar." : count === 1 ? "Se volverá a intentar 1 correo ahora." : `Se volverá a intentar ${count} correos ahora.` });
  }
  if (intent === "ajustes") return saveSettings(formData);
  if (intent === "probar-s3-archivos" || intent === "probar-s3-respaldos") {
    const target = intent === "probar-s3-archivos" ? "files" : "backups";
    const tested = await testS3Connection(target);
    if (!tested.ok) return answer(intent, { error: tested.message }, 400);
    return answer(intent, { notice: `Conexión correcta: escribimos, leímos y borramos un archivo de prueba en el almacenamiento S3 ${target === "files" ? "de los archivos" : "de los respaldos"}.` });
  }
  if (intent === "correo-prueba") {
    const parsed = TestEmailSchema.safeParse({ email: formData.get("email") });
    const submitted = { email: String(formData.get("email") ?? "") };
    if (!parsed.success) return answer(intent, { submitted, fieldErrors: { email: [parsed.error.issues[0]!.message] } }, 400);
    const sent = await sendTestEmail(parsed.data.email, "verification");
    if (!sent.ok) return answer(intent, { submitted, error: sent.message }, 400);
    return answer(intent, { notice: `Enviamos un correo de prueba a ${parsed.data.email}.` });
  }
  return answer(intent, { error: "No pudimos leer la solicitud. Recargue la página e intente de nuevo." }, 400);
}

const smallButton = "rounded-md border border-acero-300 bg-white px-3 py-1 text-sm font-medium whitespace-nowrap hover:bg-acero-50";
const sectionClass = "rounded-lg border border-acero-200 bg-white p-5";
const TRIGGERS: Record<string, string> = { programada: "programada", manual: "a mano", inicio: "al arrancar" };

function Feedback({ actionData, intent }: { actionData: ActionAnswer | undefined; intent: string }) {
  // React Router hands over an action's answer before the page's data is loaded again; the settings
  // form is remounted with the saved values only then. Saying «guardados» earlier let someone type
  // into the form that was about to be replaced, and lose it.
  const settled = useNavigation().state === "idle";
  if (actionData?.intent !== intent || !settled) return null;
  return (
    <div className="mt-3 space-y-2">
      {actionData.notice ? <FormNotice>{actionData.notice}</FormNotice> : null}
      {actionData.error ? <FormErrors errors={[actionData.error]} /> : null}
    </div>
  );
}

export default function AdminSystemPage({ loaderData, actionData }: Route.ComponentProps) {
  const { backups, backupsBucket, busy, restoreCandidate, crons, errors, outbox, settings, fixed } = loaderData;
  const emailError = actionData?.intent === "correo-prueba" ? actionData.fieldErrors?.email?.[0] : undefined;
  return (
    <main id="contenido" className="space-y-6 p-6 sm:p-8">
      <div>
        <h1 className="text-2xl font-bold text-acero-900">Sistema</h1>
        <p className="mt-1 text-acero-700">El estado del sitio, los respaldos, las tareas programadas, el correo y los ajustes técnicos.</p>
      </div>

      <SystemStatusPanel />

      <section aria-labelledby="respaldos" className={sectionClass}>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="respaldos" className="text-lg font-semibold text-acero-900">
            Respaldos
          </h2>
          <Form method="post">
            <SubmitButton intent="respaldar" pendingLabel="Creando respaldo…" className="btn-secondary text-sm">
              Crear respaldo
            </SubmitButton>
          </Form>
        </div>
        <p className="mt-1 text-sm text-acero-700">
          Cada respaldo guarda la base de datos y los archivos subidos. Se guardan {backupsBucket ? `en el almacenamiento S3 (${backupsBucket})` : "en el disco del servidor"}.
        </p>
        {busy ? <p className="mt-2 text-sm font-medium text-acero-800">En curso: {busy.kind === "backup" ? "un respaldo" : "una restauración"} ({busy.key}).</p> : null}
        <Feedback actionData={actionData} intent="respaldar" />
        <Feedback actionData={actionData} intent="restaurar" />
        {restoreCandidate ? (
          <div role="alertdialog" aria-labelledby="confirmar-restauracion" aria-describedby="confirmar-restauracion-texto" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
            <h3 id="confirmar-restauracion" className="font-semibold text-acero-900">
              ¿Restaurar este respaldo?
            </h3>
            <p id="confirmar-restauracion-texto" className="mt-1 text-sm break-words text-acero-800">
              Se reemplazarán todos los datos y archivos del sitio por los del respaldo {restoreCandidate.key} del {formatDateTime(restoreCandidate.modified)}; el estado actual se guarda antes como otro respaldo.
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Form method="post" action="/admin/sistema">
                <input type="hidden" name="key" value={restoreCandidate.key} />
                <SubmitButton intent="restaurar" pendingLabel="Iniciando…" className="btn-primary text-sm">
                  Sí, restaurar
                </SubmitButton>
              </Form>
              <AppLink to="/admin/sistema" className="btn-secondary text-sm">
                Cancelar
              </AppLink>
            </div>
          </div>
        ) : null}
        {backups.length === 0 ? (
          <p className="mt-4 text-acero-700">Todavía no hay respaldos.</p>
        ) : (
          <TableScroll label="Respaldos" className="mt-4 rounded-md border border-acero-200">
            <table className="min-w-full divide-y divide-acero-200 text-sm">
              <thead className="bg-acero-50 text-left text-acero-800">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">Nombre</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Tamaño</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Fecha</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Acciones</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-acero-100">
                {backups.map((backup) => (
                  <tr key={backup.key} data-testid="backup-row" data-key={backup.key}>
                    <td className="px-3 py-2 font-medium break-all text-acero-900">{backup.key}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-acero-800">{formatFileSize(backup.size)}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-acero-800">{formatDateTime(backup.modified)}</td>
                    <td className="px-3 py-2">
                      <div className="flex flex-wrap gap-2">
                        <a href={`/admin/sistema/respaldos/${encodeURIComponent(backup.key)}`} download className={smallButton} aria-label={`Descargar ${backup.key}`}>
                          Descargar
                        </a>
                        <AppLink to={`/admin/sistema?restaurar=${encodeURIComponent(backup.key)}`} className={smallButton} aria-label={`Restaurar ${backup.key}`}>
                          Restaurar…
                        </AppLink>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section aria-labelledby="tareas" className={sectionClass}>
        <h2 id="tareas" className="text-lg font-semibold text-acero-900">
          Tareas programadas
        </h2>
        <p className="mt-1 text-sm text-acero-700">Las horas de la programación están en UTC.</p>
        <Feedback actionData={actionData} intent="ejecutar" />
        <TableScroll label="Tareas programadas" className="mt-4 rounded-md border border-acero-200">
          <table className="min-w-full divide-y divide-acero-200 text-sm">
            <thead className="bg-acero-50 text-left text-acero-800">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">Tarea</th>
                <th scope="col" className="px-3 py-2 font-semibold">Programación</th>
                <th scope="col" className="px-3 py-2 font-semibold">Última ejecución</th>
                <th scope="col" className="px-3 py-2 font-semibold">Acciones</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-acero-100">
              {crons.map((job) => (
                <tr key={job.id} data-testid="cron-row" data-id={job.id}>
                  <td className="px-3 py-2 font-medium text-acero-900">{job.id}</td>
                  <td className="px-3 py-2 font-mono whitespace-nowrap text-acero-800">{job.expression}</td>
                  <td className="px-3 py-2 text-acero-800" data-testid="cron-last-run">
                    {!job.lastRun?.startedAt ? (
                      "Todavía no se ha ejecutado"
                    ) : (
                      <>
                        <span className="whitespace-nowrap">{formatDateTime(job.lastRun.startedAt)}</span> ({TRIGGERS[job.lastRun.trigger ?? ""] ?? job.lastRun.trigger ?? "—"}):{" "}
                        {job.lastRun.ok === null ? (
                          "en curso o interrumpida"
                        ) : job.lastRun.ok ? (
                          <span className="text-green-800">correcta</span>
                        ) : (
                          <span className="break-words text-red-800">falló: {job.lastRun.error}</span>
                        )}
                      </>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <Form method="post">
                      <input type="hidden" name="key" value={job.id} />
                      <button type="submit" name="intent" value="ejecutar" className={smallButton} aria-label={`Ejecutar ahora ${job.id}`}>
                        Ejecutar ahora
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section aria-labelledby="errores" className={sectionClass}>
        <h2 id="errores" className="text-lg font-semibold text-acero-900">
          Errores recientes
        </h2>
        {errors.length === 0 ? (
          <p className="mt-2 text-acero-700">No hay errores registrados.</p>
        ) : (
          <ul className="mt-3 divide-y divide-acero-100 text-sm">
            {errors.map((entry) => (
              <li key={entry.id} className="py-2 break-words">
                <span className="block text-xs text-acero-600">{formatDateTime(entry.created)}</span>
                <span className="font-medium text-acero-900">{entry.message}</span>
                {entry.detail ? <span className="block text-acero-700">{entry.detail}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="correo" className={sectionClass}>
        <h2 id="correo" className="text-lg font-semibold text-acero-900">
          Cola de correo
        </h2>
        <dl className="mt-2 flex flex-wrap gap-x-8 gap-y-1 text-sm">
          <div>
            <dt className="text-acero-600">Por enviar</dt>
            <dd className="text-lg font-semibold text-acero-900" data-testid="outbox-pending">{outbox.pending}</dd>
          </div>
          <div>
            <dt className="text-acero-600">Fallidos</dt>
            <dd className="text-lg font-semibold text-acero-900" data-testid="outbox-failed">{outbox.failed}</dd>
          </div>
        </dl>
        <Feedback actionData={actionData} intent="reintentar" />
        {outbox.failedMessages.length ? (
          <>
            <ul className="mt-3 divide-y divide-acero-100 text-sm">
              {outbox.failedMessages.map((mail) => (
                <li key={mail.id} className="py-2 break-words">
                  <span className="font-medium text-acero-900">{mail.subject}</span> <span className="text-acero-700">para {mail.to}</span>
                  <span className="block text-xs text-acero-600">
                    {formatDateTime(mail.createdAt)} · {formatCount(mail.attempts, "intento", "intentos")}
                  </span>
                  {mail.lastError ? <span className="block text-red-800">Último error: {mail.lastError}</span> : null}
                </li>
              ))}
            </ul>
            <Form method="post" className="mt-3">
              <SubmitButton intent="reintentar" pendingLabel="Reintentando…" className="btn-secondary text-sm">
                Reintentar ahora
              </SubmitButton>
            </Form>
          </>
        ) : null}
      </section>

      <section aria-labelledby="ajustes" className={sectionClass}>
        <h2 id="ajustes" className="text-lg font-semibold text-acero-900">
          Ajustes técnicos
        </h2>
        <p className="mt-1 text-sm text-acero-700">Los cambios aplican de inmediato, sin reiniciar.</p>
        <Feedback actionData={actionData} intent="ajustes" />
        <SystemSettingsForm
          settings={settings}
          fixed={fixed}
          submitted={actionData?.intent === "ajustes" ? actionData.submitted : undefined}
          fieldErrors={actionData?.intent === "ajustes" ? actionData.fieldErrors : undefined}
        />

        <Form method="post" className="mt-6 border-t border-acero-200 pt-4" aria-labelledby="probar-s3">
          <h3 id="probar-s3" className="font-semibold text-acero-900">
            Probar el almacenamiento S3
          </h3>
          <p className="mt-1 text-sm text-acero-700">Con los ajustes guardados, se escribe, se lee y se borra un archivo de prueba en el bucket.</p>
          <Feedback actionData={actionData} intent="probar-s3-archivos" />
          <Feedback actionData={actionData} intent="probar-s3-respaldos" />
          <div className="mt-3 flex flex-wrap gap-2">
            <SubmitButton intent="probar-s3-archivos" pendingLabel="Probando…" className="btn-secondary text-sm">
              Probar conexión de los archivos
            </SubmitButton>
            <SubmitButton intent="probar-s3-respaldos" pendingLabel="Probando…" className="btn-secondary text-sm">
              Probar conexión de los respaldos
            </SubmitButton>
          </div>
        </Form>

        <Form method="post" noValidate className="mt-6 border-t border-acero-200 pt-4" aria-labelledby="correo-prueba">
          <h3 id="correo-prueba" className="font-semibold text-acero-900">
            Correo de prueba
          </h3>
          <p className="mt-1 text-sm text-acero-700">Se envía al momento un mensaje de confirmación de cuenta con los ajustes guardados, para comprobar el servidor de correo.</p>
          <label htmlFor="correo-prueba-email" className="mt-3 block text-sm font-semibold text-acero-900">
            Enviar a
          </label>
          <input
            id="correo-prueba-email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={actionData?.intent === "correo-prueba" ? actionData.submitted?.email : undefined}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? "correo-prueba-email-error" : undefined}
            className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
          />
          {emailError ? (
            <p id="correo-prueba-email-error" className="mt-1 text-sm font-medium text-red-700">
              {emailError}
            </p>
          ) : null}
          <Feedback actionData={actionData} intent="correo-prueba" />
          <SubmitButton intent="correo-prueba" pendingLabel="Enviando…" className="btn-secondary mt-3 text-sm">
            Enviar correo de prueba
          </SubmitButton>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
