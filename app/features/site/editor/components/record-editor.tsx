import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link, useBlocker, useFetcher, useRevalidator } from "react-router";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { atTime, endSentence, formatDateTime } from "~/lib/format";
import type { MediaView } from "~/lib/media";
import type { FieldErrors } from "~/lib/result";
import { TIME_ZONE } from "~/lib/time";
import type { ContentData } from "~/services/content/collection";
import type { EditorCollection, EditorConflict } from "../editor.server";
import { ContentFields, emptyValues, inputClass, type RichTextSlotProps } from "./content-fields";
import { DiffView } from "./diff-view";
import { PreviewLink } from "./preview-link";
import { MediaLibrary } from "./media-picker";

// The record screen of /admin/contenido (docs/decisions/0045): the form, its commands (save, publish,
// schedule, discard, delete), the autosave and what it last did, the guard against leaving with
// unsaved changes, the conflict screen for a stale save, and the edit lock with its heartbeat.

/** How often the open form tells the server it is still there; a takeover is learned on the next one. */
export const HEARTBEAT_MS = 20_000;
/** Quiet time after the last keystroke before the draft saves itself. */
export const AUTOSAVE_DELAY_MS = 3_000;

export interface RecordEditorEntry {
  id: string;
  version: number;
  state: "borrador" | "publicado" | "cambios" | "programado";
  stateLabel: string;
  fixed: boolean;
  hasPublished: boolean;
  hasDraft: boolean;
  scheduledAt: Date | null;
  scheduleError: string | null;
}

export type RecordLock = { held: true } | { held: false; holder: { name: string; since: Date } };

/** What the record action answers (see routes/admin/contenido-registro.tsx). */
export type RecordActionData =
  | { kind: "ok"; intent: string; version: number; savedAt: Date; done: string; message: string; values?: ContentData }
  | { kind: "invalid"; fieldErrors: FieldErrors; formErrors: string[] }
  | { kind: "conflict"; conflict: EditorConflict }
  | { kind: "lock"; by: string; message: string };

export interface RecordEditorProps {
  collection: EditorCollection;
  entry: RecordEditorEntry | null;
  values: ContentData | null;
  previews: Record<string, string>;
  /** The library images the record names, by id (the image fields and the long texts show them). */
  media?: Readonly<Record<string, MediaView>>;
  lock: RecordLock;
  title: string;
  richText: (props: RichTextSlotProps) => ReactNode;
  /** Links beside the title (the history). */
  links?: ReactNode;
  /** The public address that previews the stored draft (docs/decisions/0049); none for a new record or one without a page. */
  previewUrl?: string | null;
}

type SaveStatus = { kind: "idle" } | { kind: "saving"; auto: boolean } | { kind: "saved"; at: Date; done: string; auto: boolean } | { kind: "error"; message: string };

let timeFormat: Intl.DateTimeFormat | undefined;
const clock = (value: Date) => (timeFormat ??= new Intl.DateTimeFormat("es-MX", { timeStyle: "short", timeZone: TIME_ZONE })).format(new Date(value));

const serialize = (values: ContentData) => JSON.stringify(values);

export function RecordEditor({ media = {}, ...props }: RecordEditorProps) {
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <MediaLibrary initial={media}>
        <RecordEditorScreen {...props} />
      </MediaLibrary>
    </main>
  );
}

function RecordEditorScreen({ collection, entry, values: loaded, previews, lock, title, richText, links, previewUrl }: Omit<RecordEditorProps, "media">) {
  const isNew = entry === null;
  const base = `/admin/contenido/${collection.name}/${entry?.id ?? "nuevo"}`;
  const lockUrl = `${base}/bloqueo`;

  const [values, setValues] = useState<ContentData>(() => loaded ?? emptyValues(collection.fields));
  const [formKey, setFormKey] = useState(0);
  const [version, setVersion] = useState<number | undefined>(entry?.version);
  const [savedJson, setSavedJson] = useState(() => serialize(loaded ?? emptyValues(collection.fields)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [status, setStatus] = useState<SaveStatus>({ kind: "idle" });
  const [conflict, setConflict] = useState<EditorConflict | null>(null);
  const [lockLost, setLockLost] = useState<string | null>(null);
  const [lockNoticeClosed, setLockNoticeClosed] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [day, setDay] = useState("");
  const [time, setTime] = useState("");

  const command = useFetcher<RecordActionData>({ key: `contenido-${base}` });
  const lockFetcher = useFetcher<{ intent: string; lost?: boolean; by?: string; held?: boolean }>();
  const revalidator = useRevalidator();
  const sent = useRef<{ json: string; intent: string; auto: boolean } | null>(null);
  // What the server refused last: the autosave does not send it again until it changes.
  const refused = useRef<string | null>(null);
  const leaving = useRef(false);

  const json = useMemo(() => serialize(values), [values]);
  const dirty = json !== savedJson;
  const holding = lock.held && !lockLost;
  const readOnly = !holding || conflict !== null;
  const busy = command.state !== "idle";

  const submit = useCallback(
    (intent: string, extra: Record<string, string> = {}, auto = false) => {
      const form = new FormData();
      form.set("intent", intent);
      form.set("datos", json);
      if (version !== undefined) form.set("version", String(version));
      if (auto) form.set("autoguardado", "1");
      for (const [name, value] of Object.entries(extra)) form.set(name, value);
      sent.current = { json, intent, auto };
      // A new record's first save, and a deletion, move to another address: no question then.
      if (isNew || intent === "eliminar") leaving.current = true;
      setStatus({ kind: "saving", auto });
      void command.submit(form, { method: "post", action: base });
    },
    [json, version, isNew, command, base],
  );

  // What the server answered to the last command.
  const answered = command.state === "idle" ? command.data : undefined;
  useEffect(() => {
    if (!answered || !sent.current) return;
    const request = sent.current;
    sent.current = null;
    leaving.current = false;
    switch (answered.kind) {
      case "ok":
        setVersion(answered.version);
        setErrors({});
        setFormErrors([]);
        if (answered.values) {
          setValues(answered.values);
          setSavedJson(serialize(answered.values));
          setFormKey((key) => key + 1);
        } else if (request.intent !== "eliminar" && request.intent !== "cancelar-programacion") setSavedJson(request.json);
        setStatus({ kind: "saved", at: new Date(answered.savedAt), done: answered.done, auto: request.auto });
        setNotice(request.auto ? null : answered.message);
        setConfirmDelete(false);
        break;
      case "invalid": {
        refused.current = request.json;
        setErrors(answered.fieldErrors);
        setFormErrors(answered.formErrors);
        const count = Object.keys(answered.fieldErrors).length;
        const reason = answered.formErrors[0] ?? (count === 1 ? "revise el campo marcado." : "revise los campos marcados.");
        setStatus({ kind: "error", message: `No se pudo guardar: ${reason}` });
        setNotice(null);
        break;
      }
      case "conflict":
        setConflict(answered.conflict);
        setStatus({ kind: "error", message: `No se pudo guardar: ${answered.conflict.message}` });
        setNotice(null);
        break;
      case "lock":
        setLockLost(answered.by);
        setStatus({ kind: "error", message: `No se pudo guardar: ${answered.message}` });
        break;
    }
  }, [answered]);

  // Autosave: a few seconds after typing stops, while the person holds the lock.
  useEffect(() => {
    if (isNew || !dirty || readOnly || busy || refused.current === json) return;
    const timer = setTimeout(() => submit("guardar", {}, true), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isNew, dirty, readOnly, busy, json, submit]);

  // The lock: a heartbeat while the form is open, released when the tab closes or the person leaves.
  const lockFetcherSubmit = lockFetcher.submit;
  useEffect(() => {
    if (isNew || !holding) return;
    const beat = () => void lockFetcherSubmit({ intent: "latido" }, { method: "post", action: lockUrl });
    const timer = setInterval(beat, HEARTBEAT_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") beat();
    };
    const release = () => {
      const form = new FormData();
      form.set("intent", "soltar");
      navigator.sendBeacon(lockUrl, form);
    };
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("pagehide", release);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("pagehide", release);
    };
  }, [isNew, holding, lockUrl, lockFetcherSubmit]);
  // Leaving the record inside the panel lets go of the lock too.
  useEffect(() => {
    if (isNew || !lock.held) return;
    return () => {
      const form = new FormData();
      form.set("intent", "soltar");
      void fetch(lockUrl, { method: "POST", body: form, keepalive: true, credentials: "same-origin" }).catch(() => undefined);
    };
  }, [isNew, lock.held, lockUrl]);

  const lockAnswer = lockFetcher.state === "idle" ? lockFetcher.data : undefined;
  useEffect(() => {
    if (!lockAnswer) return;
    if (lockAnswer.intent === "latido" && lockAnswer.lost) setLockLost(lockAnswer.by ?? "");
    if (lockAnswer.intent === "tomar" && lockAnswer.held) {
      setLockLost(null);
      void revalidator.revalidate();
    }
  }, [lockAnswer, revalidator]);

  // Leaving with unsaved changes asks first: the browser's own question on close or reload, ours inside the panel.
  useEffect(() => {
    if (!dirty || !holding) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty, holding]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && holding && !leaving.current && currentLocation.pathname !== nextLocation.pathname);

  const change = (name: string, value: unknown) => {
    setValues((old) => ({ ...old, [name]: value }));
    if (status.kind === "saved") setStatus({ kind: "idle" });
  };

  const keepMine = () => {
    if (!conflict) return;
    const form = new FormData();
    form.set("intent", "guardar");
    form.set("datos", json);
    form.set("version", String(conflict.version));
    sent.current = { json, intent: "guardar", auto: false };
    setVersion(conflict.version);
    setConflict(null);
    setStatus({ kind: "saving", auto: false });
    void command.submit(form, { method: "post", action: base });
  };
  const useStored = () => {
    if (!conflict) return;
    setValues(conflict.current);
    setSavedJson(serialize(conflict.current));
    setVersion(conflict.version);
    setFormKey((key) => key + 1);
    setConflict(null);
    setErrors({});
    setStatus({ kind: "idle" });
    setNotice("El formulario muestra la versión guardada.");
  };

  const statusText =
    status.kind === "saving"
      ? "Guardando…"
      : status.kind === "saved"
        ? endSentence(`${status.auto ? "Guardado" : status.done} ${atTime("a", clock(status.at))}`)
        : status.kind === "error"
          ? status.message
          : dirty
            ? isNew
              ? "Cambios sin guardar: guarde el borrador para crear el registro."
              : "Cambios sin guardar."
            : "Sin cambios pendientes.";

  return (
    <>
      <p className="text-sm">
        <Link to={collection.singleton ? "/admin/contenido" : `/admin/contenido/${collection.name}`} className="font-semibold text-forja-700 underline underline-offset-2">
          ← {collection.singleton ? "Contenido" : collection.label}
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-acero-900">{title}</h1>
          <p className="mt-1 text-sm text-acero-700" data-testid="record-state">
            {entry ? entry.stateLabel : "Nuevo registro: no es público hasta que lo publique."}
          </p>
        </div>
        <div className="flex flex-wrap items-start gap-3">
          {previewUrl && !isNew ? <PreviewLink href={previewUrl} unsaved={dirty && !readOnly} saving={busy || status.kind === "saving"} failed={status.kind === "error"} flush={() => submit("guardar")} /> : null}
          {links}
        </div>
      </div>

      {!lock.held ? (
        <div role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">
            {endSentence(`Lo está editando ${lock.holder.name} ${atTime("desde", clock(lock.holder.since))}`)}
          </p>
          <p className="mt-1 text-sm">Puede ver el registro. Si toma el control, {lock.holder.name} ya no podrá guardar sus cambios.</p>
          <button type="button" className="btn-dark mt-3 py-2 text-sm" onClick={() => void lockFetcher.submit({ intent: "tomar" }, { method: "post", action: lockUrl })}>
            Tomar el control
          </button>
        </div>
      ) : null}

      {lockLost !== null && lockNoticeClosed ? (
        <p role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm font-semibold text-amber-950">
          {lockLost || "Otra persona"} tiene el control de este registro: el formulario es de solo lectura.
        </p>
      ) : null}
      {lockLost !== null && !lockNoticeClosed ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-acero-950/60 p-4">
          <div role="alertdialog" aria-modal="true" aria-labelledby="control-perdido" aria-describedby="control-perdido-texto" className="max-w-lg rounded-lg bg-white p-6 shadow-xl">
            <h2 id="control-perdido" className="text-lg font-bold text-acero-900">
              {lockLost ? `${lockLost} tomó el control de este registro` : "Otra persona tomó el control de este registro"}
            </h2>
            <p id="control-perdido-texto" className="mt-2 text-acero-800">
              Sus cambios ya no se guardan: el formulario quedó de solo lectura. Vuelva a cargar la página para ver lo que guardó la otra persona.
            </p>
            <div className="mt-4 flex flex-wrap gap-3">
              <button type="button" autoFocus className="btn-primary py-2 text-sm" onClick={() => window.location.reload()}>
                Volver a cargar
              </button>
              <button type="button" className="btn-secondary py-2 text-sm" onClick={() => setLockNoticeClosed(true)}>
                Seguir viendo
              </button>
            </div>
          </div>
        </div>
      ) : null}

      <div className="mt-4 space-y-2">
        <p role="status" data-testid="autosave-status" className={status.kind === "error" ? "text-sm font-semibold text-red-700" : "text-sm text-acero-700"}>
          {statusText}
        </p>
        {notice ? <FormNotice>{notice}</FormNotice> : null}
        <FormErrors errors={formErrors} />
        {entry?.scheduleError ? <FormErrors errors={[`La publicación programada no se hizo: ${entry.scheduleError}`]} /> : null}
      </div>

      {conflict ? <ConflictPanel conflict={conflict} onKeepMine={keepMine} onUseStored={useStored} busy={busy} /> : null}

      <div className="mt-6 grid grid-cols-1 gap-8 xl:grid-cols-3">
        <form
          className="xl:col-span-2"
          aria-label={`Editar ${collection.singular}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!readOnly) submit("guardar");
          }}
        >
          <fieldset disabled={readOnly} key={formKey} className="min-w-0 space-y-6 rounded-lg border border-acero-200 bg-white p-5 disabled:opacity-90">
            <legend className="sr-only">{collection.label}</legend>
            <ContentFields
              fields={collection.fields}
              values={values}
              onChange={change}
              errors={errors}
              disabled={readOnly}
              locked={entry?.fixed && collection.slugField ? [collection.slugField] : []}
              previews={previews}
              richText={richText}
            />
          </fieldset>
          <div className="mt-4 flex flex-wrap gap-3">
            <button type="submit" disabled={readOnly || busy} className="btn-secondary py-2 text-sm">
              Guardar borrador
            </button>
            <button type="button" disabled={readOnly || busy} className="btn-primary py-2 text-sm" onClick={() => submit("publicar")}>
              Publicar
            </button>
          </div>
        </form>

        <aside className="space-y-6">
          <section aria-labelledby="programar-titulo" className="rounded-lg border border-acero-200 bg-white p-5">
            <h2 id="programar-titulo" className="text-lg font-semibold text-acero-900">
              Programar publicación
            </h2>
            {entry?.state === "programado" && entry.scheduledAt ? (
              <div className="mt-2 text-sm text-acero-800">
                <p>Se publicará el {formatDateTime(entry.scheduledAt)} (hora de la Ciudad de México).</p>
                <button type="button" disabled={readOnly || busy} className="btn-secondary mt-2 py-2 text-sm" onClick={() => submit("cancelar-programacion")}>
                  Cancelar programación
                </button>
              </div>
            ) : null}
            <p className="mt-1 text-sm text-acero-700">Fecha y hora de la Ciudad de México. Se publica lo que esté guardado en ese momento.</p>
            <div className="mt-3 grid grid-cols-2 gap-3">
              <div>
                <label htmlFor="programar-fecha" className="block text-sm font-semibold text-acero-900">
                  Fecha
                </label>
                <input id="programar-fecha" type="date" value={day} onChange={(event) => setDay(event.target.value)} disabled={readOnly} aria-invalid={errors.programada ? true : undefined} aria-describedby={errors.programada ? "programar-error" : undefined} className={inputClass} />
              </div>
              <div>
                <label htmlFor="programar-hora" className="block text-sm font-semibold text-acero-900">
                  Hora
                </label>
                <input id="programar-hora" type="time" value={time} onChange={(event) => setTime(event.target.value)} disabled={readOnly} aria-invalid={errors.programada ? true : undefined} aria-describedby={errors.programada ? "programar-error" : undefined} className={inputClass} />
              </div>
            </div>
            {errors.programada ? (
              <p id="programar-error" className="mt-1 text-sm font-medium text-red-700">
                {errors.programada[0]}
              </p>
            ) : null}
            <button type="button" disabled={readOnly || busy} className="btn-dark mt-3 py-2 text-sm" onClick={() => submit("programar", { fecha: day, hora: time })}>
              Programar publicación
            </button>
          </section>

          {entry ? (
            <section aria-labelledby="acciones-titulo" className="rounded-lg border border-acero-200 bg-white p-5">
              <h2 id="acciones-titulo" className="text-lg font-semibold text-acero-900">
                Otras acciones
              </h2>
              {entry.hasPublished && entry.hasDraft ? (
                <div className="mt-2">
                  <p className="text-sm text-acero-700">Vuelve a la versión publicada y borra los cambios guardados como borrador.</p>
                  <button type="button" disabled={readOnly || busy} className="btn-secondary mt-2 py-2 text-sm" onClick={() => submit("descartar")}>
                    Descartar borrador
                  </button>
                </div>
              ) : null}
              {entry.fixed ? (
                <p className="mt-3 text-sm text-acero-700">
                  {collection.singleton ? `${collection.label} tiene un solo registro y no puede eliminarse; puede editarlo.` : "Este registro siempre existe en el sitio y no puede eliminarse. Puede editar su contenido."}
                </p>
              ) : confirmDelete ? (
                <div role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                  <p className="font-semibold">¿Eliminar este registro y todo su historial? No se puede deshacer.</p>
                  <div className="mt-2 flex gap-2">
                    <button type="button" disabled={readOnly || busy} className="btn-dark py-2 text-sm" onClick={() => submit("eliminar")}>
                      Sí, eliminar
                    </button>
                    <button type="button" className="btn-secondary py-2 text-sm" onClick={() => setConfirmDelete(false)}>
                      No eliminar
                    </button>
                  </div>
                </div>
              ) : (
                <button type="button" disabled={readOnly || busy} className="btn-secondary mt-3 py-2 text-sm" onClick={() => setConfirmDelete(true)}>
                  Eliminar
                </button>
              )}
            </section>
          ) : null}
        </aside>
      </div>

      {blocker.state === "blocked" ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-acero-950/60 p-4">
          <div role="alertdialog" aria-modal="true" aria-labelledby="salir-titulo" className="max-w-md rounded-lg bg-white p-6 shadow-xl">
            <h2 id="salir-titulo" className="text-lg font-bold text-acero-900">
              Tiene cambios sin guardar
            </h2>
            <p className="mt-2 text-acero-800">Si sale ahora, se pierden los cambios que no se han guardado.</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <button type="button" autoFocus className="btn-primary py-2 text-sm" onClick={() => blocker.reset()}>
                Seguir editando
              </button>
              <button type="button" className="btn-secondary py-2 text-sm" onClick={() => blocker.proceed()}>
                Salir sin guardar
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}

function ConflictPanel({ conflict, onKeepMine, onUseStored, busy }: { conflict: EditorConflict; onKeepMine: () => void; onUseStored: () => void; busy: boolean }) {
  return (
    <section aria-labelledby="conflicto-titulo" className="mt-6 rounded-lg border-2 border-amber-400 bg-amber-50 p-5" data-testid="conflict">
      <h2 id="conflicto-titulo" className="text-lg font-bold text-acero-900">
        Alguien más guardó este registro
      </h2>
      <p className="mt-1 text-acero-800">{conflict.message}</p>
      {conflict.savedBy && conflict.savedAt ? (
        <p className="mt-1 text-sm text-acero-700">
          {endSentence(`Versión guardada por ${conflict.savedBy} el ${formatDateTime(conflict.savedAt)}`)}
        </p>
      ) : null}
      <div className="mt-3 overflow-x-auto rounded-md bg-white">
        <DiffView diff={conflict.diff} sides={{ before: "Versión guardada", after: "Sus cambios" }} caption="Diferencias entre la versión guardada y sus cambios" />
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" disabled={busy} className="btn-primary py-2 text-sm" onClick={onKeepMine}>
          Conservar mis cambios
        </button>
        <button type="button" disabled={busy} className="btn-secondary py-2 text-sm" onClick={onUseStored}>
          Usar la versión guardada
        </button>
      </div>
    </section>
  );
}
