import type { ReactNode } from "react";
import { CopyWarnings, copyWarningsId } from "~/components/ui/copy-warnings";
import { checkCopy, checkRichTextCopy, type CopyKind, type CopyWarning } from "~/lib/copy-check";
import type { FieldErrors } from "~/lib/result";
import type { ContentData, ContentField } from "~/services/content/collection";
import { richTextBlocks } from "~/services/content/diff";
import { FACT_TOKENS, unknownFactWarnings } from "~/services/site-config/fact-tokens";
import { mediaThumbnail, MediaField, useMediaLibrary } from "./media-picker";

// The record form of /admin/contenido, drawn from the collection's `fields` (docs/decisions/0045):
// every kind of field as a labelled control with its help, its Spanish error beside it and its copy
// warnings under it. The values live in the page's state (the form posts them as one JSON object),
// so nothing typed is lost when the server refuses a save.

export const inputClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700 disabled:bg-acero-100";
const smallButton = "rounded border border-acero-300 bg-white px-2 py-1 text-sm font-semibold text-acero-800 hover:bg-acero-50 disabled:opacity-50";

/** What the page gives a long-text field: the lazy editor, drawn by the route (only admin routes load it). */
export interface RichTextSlotProps {
  id: string;
  name: string;
  label: string;
  value: string;
  html: string;
  describedBy: string;
  invalid: boolean;
  onChange: (json: string) => void;
  /** «Imagen» of the toolbar: the media library's dialog (absent outside an editor page). */
  onPickImage?: () => Promise<{ mediaId: string; alt: string } | null>;
  /** How the editor shows an image of the library it knows. */
  resolveImage?: (mediaId: string) => { src: string; width: number; height: number } | null;
}

export interface ContentFieldsProps {
  fields: readonly ContentField[];
  values: ContentData;
  onChange: (name: string, value: unknown) => void;
  errors: FieldErrors;
  /** The dotted path of these fields inside the record ("retos.0"), empty at the top. */
  path?: string;
  disabled?: boolean;
  /** Fields that cannot change (a fixed record's slug). */
  locked?: readonly string[];
  /** The server's rendering of each long text, for its first paint. */
  previews?: Record<string, string>;
  richText: (props: RichTextSlotProps) => ReactNode;
}

/** A new record's starting values: empty texts (a long text too: "" is the empty document) and lists, «publicado» on, order 0. */
export function emptyValues(fields: readonly ContentField[]): ContentData {
  const values: ContentData = {};
  for (const field of fields) {
    switch (field.kind) {
      case "number":
        values[field.name] = 0;
        break;
      case "boolean":
        values[field.name] = field.name === "publicado";
        break;
      case "list":
      case "items":
        values[field.name] = [];
        break;
      case "media":
        values[field.name] = null;
        break;
      default:
        values[field.name] = "";
    }
  }
  return values;
}

const fieldId = (key: string) => `campo-${key.replaceAll(".", "-")}`;

function copyKind(field: ContentField): CopyKind {
  if (field.seo === "title") return "seo-title";
  if (field.seo === "description") return "seo-description";
  return field.name === "alt" ? "alt" : "text";
}

function warningsFor(field: ContentField, value: unknown): (CopyWarning & { block?: number })[] {
  if (field.kind === "richtext") {
    if (!value) return [];
    const blocks = richTextBlocks(value);
    return [...checkRichTextCopy(blocks), ...unknownFactWarnings(blocks)];
  }
  if (field.kind !== "text" && field.kind !== "textarea") return [];
  const text = typeof value === "string" ? value : "";
  const kind = copyKind(field);
  if (!text && kind === "text") return [];
  return checkCopy(text, kind === "seo-title" ? { kind, titleSuffix: " | Forja" } : { kind });
}

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The first error of a field, or of anything inside it (a list's lines report under the list). */
function errorOf(errors: FieldErrors, key: string): string | undefined {
  return errors[key]?.[0];
}

function Label({ htmlFor, field }: { htmlFor: string; field: ContentField }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-semibold text-acero-900">
      {field.label}
      {field.required || field.kind === "boolean" ? null : <span className="font-normal text-acero-600"> (opcional)</span>}
    </label>
  );
}

function Help({ id, text }: { id: string; text?: string }) {
  return text ? (
    <p id={id} className="mt-1 text-sm text-acero-600">
      {text}
    </p>
  ) : null;
}

/** The facts of Ajustes a long text may name: the page shows the published value in their place (docs/decisions/0087). */
function FactTokensHelp() {
  return (
    <details className="mt-2 text-sm text-acero-700">
      <summary className="cursor-pointer font-medium text-forja-700 underline-offset-2 hover:underline">Datos del negocio que puede escribir</summary>
      <p className="mt-1">
        Escriba uno de estos nombres entre llaves y la página mostrará el dato de Ajustes; si cambia el horario o el domicilio en Ajustes, el texto cambia solo.
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {FACT_TOKENS.map((token) => (
          <div key={token.name} className="contents">
            <dt>
              <code className="break-all">{`{${token.name}}`}</code>
            </dt>
            <dd className="text-acero-600">{token.label}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function ErrorText({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  ) : null;
}

export function ContentFields(props: ContentFieldsProps) {
  return (
    <div className="space-y-6">
      {props.fields.map((field) => (
        <ContentFieldControl key={field.name} {...props} field={field} />
      ))}
    </div>
  );
}

function ContentFieldControl({ field, values, onChange, errors, path = "", disabled, locked = [], previews = {}, richText }: ContentFieldsProps & { field: ContentField }) {
  const library = useMediaLibrary();
  const key = path ? `${path}.${field.name}` : field.name;
  const id = fieldId(key);
  const helpId = `${id}-ayuda`;
  const errorId = `${id}-error`;
  const value = values[field.name];
  const error = errorOf(errors, key);
  const warnings = warningsFor(field, value);
  const describedBy = [field.help ? helpId : null, error ? errorId : null, copyWarningsId(id)].filter(Boolean).join(" ");
  const common = { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, disabled: disabled || locked.includes(key) };
  const text = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);

  let control: ReactNode;
  switch (field.kind) {
    case "textarea":
      control = <textarea {...common} rows={4} value={text} onChange={(event) => onChange(field.name, event.target.value)} className={inputClass} />;
      break;
    case "richtext":
      control = richText({
        id,
        name: key,
        label: field.label,
        value: typeof value === "string" ? value : value ? JSON.stringify(value) : "",
        html: previews[key] ?? "",
        describedBy,
        invalid: Boolean(error),
        onPickImage: library
          ? async () => {
              const image = await library.pick();
              return image ? { mediaId: image.id, alt: image.alt } : null;
            }
          : undefined,
        resolveImage: library
          ? (mediaId) => {
              const image = library.views[mediaId];
              return image ? { src: mediaThumbnail(image), width: image.width, height: image.height } : null;
            }
          : undefined,
        onChange: (json) => {
          try {
            onChange(field.name, json ? JSON.parse(json) : "");
          } catch {
            onChange(field.name, json);
          }
        },
      });
      break;
    case "number":
      control = (
        <input
          {...common}
          type="text"
          inputMode="numeric"
          value={text}
          onChange={(event) => {
            const raw = event.target.value;
            // A number is stored as a number; anything else stays as typed, and the rules say what to fix.
            onChange(field.name, raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw);
          }}
          className={`${inputClass} max-w-40`}
        />
      );
      break;
    case "boolean":
      return (
        <div>
          <div className="flex items-center gap-2">
            <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(field.name, event.target.checked)} className="size-5 accent-forja-700" />
            <label htmlFor={id} className="text-sm font-semibold text-acero-900">
              {field.label}
            </label>
          </div>
          <Help id={helpId} text={field.help} />
          <ErrorText id={errorId} message={error} />
          <div id={copyWarningsId(id)} />
        </div>
      );
    case "media":
      return (
        <MediaField
          id={id}
          label={field.label}
          help={<Help id={helpId} text={field.help} />}
          helpId={field.help ? helpId : undefined}
          errorId={errorId}
          error={<ErrorText id={errorId} message={error} />}
          value={typeof value === "string" && value ? value : null}
          disabled={common.disabled}
          onChange={(next) => onChange(field.name, next)}
        />
      );
    case "list":
      return <ListField field={field} id={id} list={Array.isArray(value) ? value.map((item) => String(item ?? "")) : []} onChange={(list) => onChange(field.name, list)} errors={errors} fieldKey={key} disabled={disabled} />;
    case "items":
      return (
        <ItemsField
          field={field}
          id={id}
          list={Array.isArray(value) ? (value as ContentData[]) : []}
          onChange={(list) => onChange(field.name, list)}
          errors={errors}
          fieldKey={key}
          disabled={disabled}
          richText={richText}
        />
      );
    default: {
      const type = field.kind === "email" ? "email" : field.kind === "phone" ? "tel" : "text";
      control = (
        <input
          {...common}
          type={type}
          value={text}
          onChange={(event) => onChange(field.name, event.target.value)}
          className={field.kind === "slug" ? `${inputClass} font-mono` : inputClass}
        />
      );
    }
  }
  return (
    <div>
      <Label htmlFor={id} field={field} />
      <Help id={helpId} text={field.help} />
      {control}
      {field.kind === "richtext" ? <FactTokensHelp /> : null}
      <ErrorText id={errorId} message={error} />
      <CopyWarnings fieldId={id} warnings={warnings} />
    </div>
  );
}

function ListField({ field, id, list, onChange, errors, fieldKey, disabled }: { field: ContentField; id: string; list: string[]; onChange: (list: string[]) => void; errors: FieldErrors; fieldKey: string; disabled?: boolean }) {
  const error = errorOf(errors, fieldKey);
  return (
    <fieldset aria-describedby={[field.help ? `${id}-ayuda` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined}>
      <legend className="text-sm font-semibold text-acero-900">{field.label}</legend>
      <Help id={`${id}-ayuda`} text={field.help} />
      <ol className="mt-2 space-y-2">
        {list.map((item, index) => {
          const lineKey = `${fieldKey}.${index}`;
          const lineId = fieldId(lineKey);
          const lineError = errorOf(errors, lineKey);
          const warnings = item ? checkCopy(item) : [];
          return (
            <li key={index}>
              <div className="flex flex-wrap items-start gap-2">
                <label htmlFor={lineId} className="sr-only">
                  {`${field.label}, renglón ${index + 1}`}
                </label>
                <input
                  id={lineId}
                  type="text"
                  value={item}
                  disabled={disabled}
                  aria-invalid={lineError ? true : undefined}
                  aria-describedby={[lineError ? `${lineId}-error` : null, copyWarningsId(lineId)].filter(Boolean).join(" ")}
                  onChange={(event) => onChange(list.map((old, at) => (at === index ? event.target.value : old)))}
                  className={`${inputClass} mt-0 min-w-0 flex-1`}
                />
                <LineButtons label={`renglón ${index + 1} de ${field.label}`} index={index} count={list.length} disabled={disabled} onMove={(to) => onChange(moved(list, index, to))} onRemove={() => onChange(list.filter((_, at) => at !== index))} />
              </div>
              <ErrorText id={`${lineId}-error`} message={lineError} />
              <CopyWarnings fieldId={lineId} warnings={warnings} />
            </li>
          );
        })}
      </ol>
      <button type="button" disabled={disabled} onClick={() => onChange([...list, ""])} className={`${smallButton} mt-2`}>
        Agregar renglón
      </button>
      <ErrorText id={`${id}-error`} message={error} />
    </fieldset>
  );
}

function LineButtons({ label, index, count, disabled, onMove, onRemove }: { label: string; index: number; count: number; disabled?: boolean; onMove: (to: number) => void; onRemove: () => void }) {
  return (
    <div className="flex gap-1">
      <button type="button" className={smallButton} disabled={disabled || index === 0} onClick={() => onMove(index - 1)} aria-label={`Subir ${label}`}>
        Subir
      </button>
      <button type="button" className={smallButton} disabled={disabled || index === count - 1} onClick={() => onMove(index + 1)} aria-label={`Bajar ${label}`}>
        Bajar
      </button>
      <button type="button" className={smallButton} disabled={disabled} onClick={onRemove} aria-label={`Quitar ${label}`}>
        Quitar
      </button>
    </div>
  );
}

function ItemsField({
  field,
  id,
  list,
  onChange,
  errors,
  fieldKey,
  disabled,
  richText,
}: {
  field: ContentField;
  id: string;
  list: ContentData[];
  onChange: (list: ContentData[]) => void;
  errors: FieldErrors;
  fieldKey: string;
  disabled?: boolean;
  richText: ContentFieldsProps["richText"];
}) {
  const itemFields = field.items ?? [];
  const error = errorOf(errors, fieldKey);
  return (
    <fieldset aria-describedby={[field.help ? `${id}-ayuda` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined}>
      <legend className="text-sm font-semibold text-acero-900">{field.label}</legend>
      <Help id={`${id}-ayuda`} text={field.help} />
      <ol className="mt-2 space-y-3">
        {list.map((item, index) => (
          <li key={index} className="rounded-md border border-acero-200 bg-acero-50 p-3">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-semibold text-acero-800">
                {field.label}: {index + 1}
              </p>
              <LineButtons label={`elemento ${index + 1} de ${field.label}`} index={index} count={list.length} disabled={disabled} onMove={(to) => onChange(moved(list, index, to))} onRemove={() => onChange(list.filter((_, at) => at !== index))} />
            </div>
            <ContentFields
              fields={itemFields}
              values={item}
              path={`${fieldKey}.${index}`}
              errors={errors}
              disabled={disabled}
              richText={richText}
              onChange={(name, value) => onChange(list.map((old, at) => (at === index ? { ...old, [name]: value } : old)))}
            />
          </li>
        ))}
      </ol>
      <button type="button" disabled={disabled} onClick={() => onChange([...list, emptyValues(itemFields)])} className={`${smallButton} mt-2`}>
        Agregar elemento
      </button>
      <ErrorText id={`${id}-error`} message={error} />
    </fieldset>
  );
}
