import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/form";
import { RATE_LIMIT_DESCRIPTIONS, RATE_LIMIT_LABELS } from "~/services/security/rate-limit-settings";

// The technical settings' form on /admin/sistema (issue 17 §3, docs/decisions/0057, 0058). Plain
// inputs named by their setting ("logs.maxDays"); the server validates with the settings' schema
// and answers errors by the same names. A value the environment fixes is shown read-only and not sent.

export type SettingsFieldKind = "text" | "email" | "url" | "number" | "password" | "checkbox" | "authMethod";

export interface SettingsField {
  path: string;
  label: string;
  kind: SettingsFieldKind;
  help?: string;
}

/** The fields of an S3 connection (PocketBase's `s3` shape) under `prefix`. */
function s3Fields(prefix: string, enabledLabel: string, enabledHelp: string): SettingsField[] {
  return [
    { path: `${prefix}.enabled`, label: enabledLabel, kind: "checkbox", help: enabledHelp },
    { path: `${prefix}.bucket`, label: "Bucket", kind: "text" },
    { path: `${prefix}.region`, label: "Región", kind: "text", help: "Por ejemplo us-east-1." },
    { path: `${prefix}.endpoint`, label: "Dirección del servicio (endpoint)", kind: "url", help: "Con https://, por ejemplo https://s3.us-east-1.amazonaws.com." },
    { path: `${prefix}.accessKey`, label: "Clave de acceso", kind: "text" },
    { path: `${prefix}.secret`, label: "Clave secreta", kind: "password", help: "Por seguridad no se muestra. Déjela vacía para conservar la actual." },
    { path: `${prefix}.forcePathStyle`, label: "Usar direcciones con el bucket en la ruta (MinIO y similares)", kind: "checkbox" },
  ];
}

export const SETTINGS_SECTIONS: readonly { legend: string; fields: readonly SettingsField[] }[] = [
  {
    legend: "Sitio y remitente de los correos",
    fields: [
      { path: "meta.appName", label: "Nombre del sitio", kind: "text" },
      { path: "meta.appURL", label: "Dirección pública del sitio", kind: "url", help: "Con http:// o https://; se usa en los enlaces de los correos." },
      { path: "meta.senderName", label: "Nombre del remitente", kind: "text" },
      { path: "meta.senderAddress", label: "Correo del remitente", kind: "email" },
      { path: "meta.hideControls", label: "Ocultar los controles para crear y editar colecciones", kind: "checkbox" },
    ],
  },
  {
    legend: "Servidor de correo (SMTP)",
    fields: [
      { path: "smtp.enabled", label: "Enviar por este servidor de correo", kind: "checkbox" },
      { path: "smtp.host", label: "Servidor", kind: "text" },
      { path: "smtp.port", label: "Puerto", kind: "number" },
      { path: "smtp.username", label: "Usuario", kind: "text" },
      { path: "smtp.password", label: "Contraseña", kind: "password", help: "Por seguridad no se muestra. Déjela vacía para conservar la actual." },
      { path: "smtp.authMethod", label: "Método de autenticación", kind: "authMethod" },
      { path: "smtp.tls", label: "Conexión cifrada (TLS) desde el inicio", kind: "checkbox" },
      { path: "smtp.localName", label: "Nombre de este equipo al saludar al servidor", kind: "text", help: "Opcional; casi nunca hace falta." },
    ],
  },
  {
    legend: "Respaldos",
    fields: [
      { path: "backups.cron", label: "Programación (cron, hora UTC)", kind: "text", help: "Por ejemplo 0 9 * * * (cada día a las 9 UTC, las 3 de la mañana en la Ciudad de México). Vacío: sin respaldos programados." },
      { path: "backups.cronMaxKeep", label: "Respaldos programados que se conservan", kind: "number" },
    ],
  },
  {
    legend: "Almacenamiento S3 de los archivos",
    fields: s3Fields("s3", "Guardar los archivos subidos en este bucket", "Los archivos nuevos van al bucket; los guardados antes se siguen leyendo de donde estaban hasta copiarlos con npm run files:to-s3."),
  },
  {
    legend: "Almacenamiento S3 de los respaldos",
    fields: s3Fields("backups.s3", "Guardar los respaldos en este bucket", "Los respaldos nuevos van al bucket, en lugar del disco del servidor."),
  },
  {
    legend: "Límites de solicitudes por conexión",
    fields: [
      { path: "rateLimits.enabled", label: "Aplicar estos límites", kind: "checkbox", help: "Apagados, ninguna conexión tiene tope en estas acciones; los límites por cuenta siguen activos." },
      // PocketBase's rules are a list; here each one is found by its label ("rateLimits.rules.signIn.maxRequests").
      ...RATE_LIMIT_LABELS.flatMap((label): SettingsField[] => [
        { path: `rateLimits.rules.${label}.maxRequests`, label: `${RATE_LIMIT_DESCRIPTIONS[label]}: solicitudes permitidas`, kind: "number" },
        { path: `rateLimits.rules.${label}.duration`, label: `${RATE_LIMIT_DESCRIPTIONS[label]}: en cuántos segundos`, kind: "number" },
      ]),
    ],
  },
  {
    legend: "Registros",
    fields: [{ path: "logs.maxDays", label: "Días que se conservan los registros", kind: "number", help: "0 borra los registros en cada limpieza." }],
  },
];

export const SETTINGS_FIELDS: readonly SettingsField[] = SETTINGS_SECTIONS.flatMap((section) => section.fields);

/** The environment variable that fixes `path` (itself, its section or sub-section), if any. */
export function fixedBy(fixed: Readonly<Record<string, string>>, path: string): string | undefined {
  const names = path.split(".");
  for (let length = names.length; length > 0; length -= 1) {
    const variable = fixed[names.slice(0, length).join(".")];
    if (variable) return variable;
  }
  return undefined;
}

/** A setting's value as its input shows it ("on"/"" for a checkbox). */
export function settingInputValue(settings: Readonly<Record<string, unknown>>, field: SettingsField): string {
  let value: unknown = settings;
  for (const name of field.path.split(".")) {
    if (Array.isArray(value)) value = value.find((item: unknown) => (item as { label?: unknown } | null)?.label === name);
    else value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  }
  if (field.kind === "checkbox") return value === true ? "on" : "";
  if (field.kind === "password") return "";
  return value === undefined || value === null ? "" : String(value);
}

const inputClass = "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900 read-only:bg-acero-100 read-only:text-acero-700 aria-invalid:border-red-600";

function FieldInput({ field, value, fixedVariable, error }: { field: SettingsField; value: string; fixedVariable?: string; error?: string }) {
  const id = `ajuste-${field.path.replaceAll(".", "-")}`;
  const helpId = `${id}-ayuda`;
  const errorId = `${id}-error`;
  const describedBy = [field.help || fixedVariable ? helpId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  const help = (
    <>
      {field.help || fixedVariable ? (
        <p id={helpId} className="mt-1 text-sm text-acero-600">
          {fixedVariable ? `Lo fija la variable ${fixedVariable}.` : field.help}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
  const common = { id, name: fixedVariable ? undefined : field.path, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined };
  if (field.kind === "checkbox") {
    return (
      <div>
        <div className="flex items-start gap-2">
          <input type="checkbox" {...common} defaultChecked={value === "on"} disabled={Boolean(fixedVariable)} className="mt-1 size-4" />
          <label htmlFor={id} className="text-sm font-semibold text-acero-900">
            {field.label}
          </label>
        </div>
        {help}
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-acero-900">
        {field.label}
      </label>
      {field.kind === "authMethod" ? (
        <select {...common} defaultValue={value} disabled={Boolean(fixedVariable)} className={inputClass}>
          <option value="">Automático</option>
          <option value="PLAIN">PLAIN</option>
          <option value="LOGIN">LOGIN</option>
        </select>
      ) : (
        <input
          {...common}
          type={field.kind === "password" ? "password" : field.kind === "email" ? "email" : "text"}
          inputMode={field.kind === "number" ? "numeric" : field.kind === "url" ? "url" : undefined}
          autoComplete={field.kind === "password" ? "new-password" : "off"}
          defaultValue={value}
          readOnly={Boolean(fixedVariable)}
          className={inputClass}
        />
      )}
      {help}
    </div>
  );
}

export function SystemSettingsForm({
  settings,
  fixed,
  submitted,
  fieldErrors,
}: {
  settings: Readonly<Record<string, unknown>>;
  fixed: Readonly<Record<string, string>>;
  /** What was sent, when the server refused it: shown again as typed. */
  submitted?: Readonly<Record<string, string>>;
  fieldErrors?: Readonly<Record<string, string[]>>;
}) {
  // Remounted when the saved values change, so the inputs show them; kept as typed on an error.
  const key = JSON.stringify(SETTINGS_FIELDS.map((field) => settingInputValue(settings, field)));
  return (
    <Form method="post" key={key} noValidate className="mt-4 space-y-6" aria-label="Ajustes del sistema">
      {SETTINGS_SECTIONS.map((section) => (
        <fieldset key={section.legend} className="space-y-4 rounded-md border border-acero-200 p-4">
          <legend className="px-1 font-semibold text-acero-900">{section.legend}</legend>
          {section.fields.map((field) => {
            const fixedVariable = fixedBy(fixed, field.path);
            const value = !fixedVariable && submitted && field.kind !== "password" ? (submitted[field.path] ?? "") : settingInputValue(settings, field);
            return <FieldInput key={field.path} field={field} value={value} fixedVariable={fixedVariable} error={fieldErrors?.[field.path]?.[0]} />;
          })}
        </fieldset>
      ))}
      <SubmitButton intent="ajustes" pendingLabel="Guardando…" className="btn-primary">
        Guardar ajustes
      </SubmitButton>
    </Form>
  );
}
