import { lazy, Suspense, useState } from "react";
import { data, redirect, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/contenido-registro";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { RichTextFallback } from "~/components/rich-text/rich-text-fallback";
import { AppLink } from "~/components/ui/app-link";
import { parseEditorCommand, runEditorCommand } from "~/features/site/editor/commands.server";
import { RecordEditor, type RecordActionData } from "~/features/site/editor/components/record-editor";
import type { RichTextSlotProps } from "~/features/site/editor/components/content-fields";
import { editorCollection, editorConflict, entryStateLabel, entryTitle, recordFormMedia } from "~/features/site/editor/editor.server";
import { notFound } from "~/lib/errors";
import { endSentence, formatDateTime } from "~/lib/format";
import { readForm } from "~/lib/request-body";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { getEntry, listEntries } from "~/services/content/entries.server";
import { previewAddress } from "~/features/site/preview.server";
import { acquireLock } from "~/services/content/locks.server";
import { requireContentCollection } from "./contenido-acceso.server";

// /admin/contenido/<colección>/<id> (and …/nuevo): a record's form, drawn from its collection's
// fields (docs/decisions/0045). Opening it takes the edit lock; the page keeps it with a heartbeat.

// Lexical stays out of every other page's bundle (docs/decisions/0039): loaded here, on demand.
const RichTextEditor = lazy(() => import("~/components/rich-text/rich-text-editor"));

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ title: loaderData?.title ?? "Contenido", description: "Edición de un registro del sitio.", noindex: true });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { staff, collection } = await requireContentCollection(request, context, params.coleccion);
  const base = { collection: editorCollection(collection) };
  if (params.id === "nuevo") {
    if (collection.singleton) {
      const [only] = await listEntries(collection);
      if (only) throw redirect(`/admin/contenido/${collection.name}/${only.id}`);
    }
    return { ...base, entry: null, values: null, previews: {}, media: {}, previewUrl: null, lock: { held: true as const }, title: `Agregar ${collection.singular}` };
  }
  const found = await getEntry(collection, params.id);
  if (!found.ok) notFound(request);
  const lock = await acquireLock(params.id, { id: staff.id, name: staff.name });
  if (!lock.ok) notFound(request);
  const entry = found.value;
  const values = entry.draft ?? entry.published;
  const { previews, media } = await recordFormMedia(collection, values);
  return {
    ...base,
    entry: {
      id: entry.id,
      version: entry.version,
      state: entry.state,
      stateLabel: entryStateLabel(entry),
      fixed: entry.fixed,
      hasPublished: entry.published !== null,
      hasDraft: entry.draft !== null,
      scheduledAt: entry.scheduledAt,
      scheduleError: entry.scheduleError,
    },
    values,
    previews,
    media,
    lock: lock.value,
    title: entryTitle(collection, values),
    // «Vista previa» (docs/decisions/0049): the address of the stored draft, new after each save.
    previewUrl: previewAddress(collection, entry.id, values),
  };
}

const DONE: Record<string, string> = {
  guardar: "Borrador guardado",
  publicar: "Publicado",
  programar: "Publicación programada",
  "cancelar-programacion": "Programación cancelada",
  descartar: "Borrador descartado",
};

const MESSAGES: Record<string, string> = {
  guardar: "Borrador guardado.",
  publicar: "Publicado: el sitio ya muestra esta versión.",
  "cancelar-programacion": "Programación cancelada: el borrador sigue guardado.",
  descartar: "Borrador descartado: el formulario muestra la versión publicada.",
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const { staff, collection } = await requireContentCollection(request, context, params.coleccion);
  const id = params.id === "nuevo" ? null : params.id;
  const found = id === null ? null : await getEntry(collection, id);
  if (found && !found.ok) notFound(request);
  const entry = found?.value ?? null;
  const parsed = parseEditorCommand(await readForm(request));
  if (!parsed.ok) {
    const { fieldErrors, formErrors } = failureMessages(parsed);
    return data<RecordActionData>({ kind: "invalid", fieldErrors, formErrors }, { status: failureStatus(parsed) });
  }
  // Someone took the record over: their lock stands until they leave (the version protects the data either way).
  if (entry?.lock && entry.lock.by.id !== staff.id) {
    const by = entry.lock.by.name;
    return data<RecordActionData>({ kind: "lock", by, message: `${by} tiene el control de este registro; sus cambios no se guardaron.` }, { status: 409 });
  }
  const now = new Date();
  const command = parsed.value;
  const outcome = await runEditorCommand(collection, id, entry, command, { id: staff.id, name: staff.name }, now);
  if (outcome.ok) {
    if (outcome.value === "eliminado") throw redirect(`/admin/contenido/${collection.name}`);
    if (id === null) throw redirect(`/admin/contenido/${collection.name}/${outcome.value.id}`);
    const saved = outcome.value;
    const message = command.intent === "programar" ? endSentence(`Publicación programada para el ${formatDateTime(command.at)}`) : (MESSAGES[command.intent] ?? "Listo.");
    const values = command.intent === "descartar" ? (saved.published ?? undefined) : undefined;
    return data<RecordActionData>({ kind: "ok", intent: command.intent, version: saved.version, savedAt: now, done: DONE[command.intent] ?? "Listo", message, values });
  }
  if ("current" in outcome) return data<RecordActionData>({ kind: "conflict", conflict: editorConflict(collection, outcome) }, { status: 409 });
  if (outcome.kind === "not-found") notFound(request);
  const { fieldErrors, formErrors } = failureMessages(outcome);
  return data<RecordActionData>({ kind: "invalid", fieldErrors, formErrors }, { status: failureStatus(outcome) });
}

function RichTextSlot(props: RichTextSlotProps) {
  return (
    <Suspense fallback={<RichTextFallback name={props.name} value={props.value} html={props.html} label={props.label} id={props.id} />}>
      <RichTextEditor
        name={props.name}
        value={props.value}
        html={props.html}
        label={props.label}
        id={props.id}
        describedBy={props.describedBy}
        invalid={props.invalid}
        onChange={props.onChange}
        onPickImage={props.onPickImage}
        resolveImage={props.resolveImage}
      />
    </Suspense>
  );
}

// The lock's heartbeat and release change nothing the loader shows; «Tomar el control» revalidates itself.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) => (formAction?.endsWith("/bloqueo") ? false : defaultShouldRevalidate);

export default function AdminContentRecordPage({ loaderData }: Route.ComponentProps) {
  const { collection, entry, values, previews, media, lock, title } = loaderData;
  // A fresh form, with the latest data, each time this person gets the lock («Tomar el control»);
  // losing it keeps the form (and its notice) as it is.
  const [generation, setGeneration] = useState(0);
  const [held, setHeld] = useState(lock.held);
  if (held !== lock.held) {
    setHeld(lock.held);
    if (lock.held) setGeneration((value) => value + 1);
  }
  return (
    <RecordEditor
      key={`${entry?.id ?? "nuevo"}:${generation}`}
      collection={collection}
      entry={entry}
      values={values}
      previews={previews}
      media={media}
      lock={lock}
      title={title}
      previewUrl={loaderData.previewUrl}
      richText={(props) => <RichTextSlot {...props} />}
      links={
        entry?.hasPublished ? (
          <AppLink to={`/admin/contenido/${collection.name}/${entry.id}/historial`} className="btn-secondary py-2 text-sm">
            Historial
          </AppLink>
        ) : null
      }
    />
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
