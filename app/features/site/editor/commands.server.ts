import { isIsoDay, startOfMexicoCityDay } from "~/lib/time";
import { invalid, ok, type Result } from "~/lib/result";
import type { ContentActor, ContentData } from "~/services/content/collection";
import { deleteEntry, discardDraft, saveDraft, type SaveResult } from "~/services/content/drafts.server";
import type { ContentEntry } from "~/services/content/entry";
import { publish } from "~/services/content/publish.server";
import { schedule, unschedule } from "~/services/content/schedule.server";
import type { AnyContentCollection } from "~/services/content/registry.server";

// The record form's commands (docs/decisions/0045): the posted form read into one typed command,
// then the one store call (or two: what is on screen is saved before it is published or
// scheduled, so «Publicar» publishes exactly what the person sees).

export type EditorCommand =
  | { intent: "guardar"; data: ContentData; version: number | undefined; autosave: boolean }
  | { intent: "publicar"; data: ContentData; version: number | undefined }
  | { intent: "programar"; data: ContentData; version: number | undefined; at: Date }
  | { intent: "cancelar-programacion" }
  | { intent: "descartar"; version: number | undefined }
  | { intent: "eliminar" };

const NOT_READ = "No pudimos leer el formulario. Vuelva a cargar la página y envíelo de nuevo.";

function readData(form: FormData): ContentData | null {
  const text = form.get("datos");
  if (typeof text !== "string") return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as ContentData) : null;
  } catch {
    return null;
  }
}

function readVersion(form: FormData): number | undefined | null {
  const text = form.get("version");
  if (text === null || text === "") return undefined;
  const version = Number(text);
  return Number.isInteger(version) && version > 0 ? version : null;
}

/** "2026-12-01" and "09:30" in Mexico City as an instant, or null when they are not a real day and time. */
export function scheduleInstant(day: string, time: string): Date | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time.trim());
  if (!isIsoDay(day.trim()) || !match) return null;
  return new Date(startOfMexicoCityDay(day.trim()).getTime() + (Number(match[1]) * 60 + Number(match[2])) * 60_000);
}

/** The posted form as a command, or a Spanish refusal (field `programada` for the date and hour). */
export function parseEditorCommand(form: FormData): Result<EditorCommand> {
  const intent = String(form.get("intent") ?? "");
  const version = readVersion(form);
  if (version === null) return invalid(NOT_READ);
  switch (intent) {
    case "guardar":
    case "publicar":
    case "programar": {
      const data = readData(form);
      if (!data) return invalid(NOT_READ);
      if (intent === "guardar") return ok({ intent, data, version, autosave: form.get("autoguardado") === "1" });
      if (intent === "publicar") return ok({ intent, data, version });
      const day = String(form.get("fecha") ?? "");
      const time = String(form.get("hora") ?? "");
      if (!day || !time) return invalid({ fieldErrors: { programada: ["Escriba la fecha y la hora de la publicación."] } });
      const at = scheduleInstant(day, time);
      if (!at) return invalid({ fieldErrors: { programada: ["Escriba una fecha y una hora válidas."] } });
      return ok({ intent, data, version, at });
    }
    case "cancelar-programacion":
    case "eliminar":
      return ok({ intent });
    case "descartar":
      return ok({ intent, version });
    default:
      return invalid("Acción desconocida.");
  }
}

/** The value as JSON with every object's keys sorted: stored data comes back from jsonb in its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const sameData = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** Saves what is on screen unless it is exactly what is stored already (so publishing an unchanged record keeps its history clean). */
async function saveIfChanged(collection: AnyContentCollection, entry: ContentEntry | null, id: string | null, data: ContentData, version: number | undefined, actor: ContentActor, now: Date): Promise<SaveResult<ContentData>> {
  if (entry && entry.version === version && entry.draft !== null && sameData(entry.draft, data)) return ok(entry);
  return saveDraft(collection, { id: id ?? undefined, data, expectedVersion: version }, actor, now);
}

export type CommandOutcome = SaveResult<ContentData> | { ok: true; value: "eliminado" };

/** Runs a command on record `id` (null: a new record, saved as a draft). `entry`: the record as stored now, when it exists. */
export async function runEditorCommand(
  collection: AnyContentCollection,
  id: string | null,
  entry: ContentEntry | null,
  command: EditorCommand,
  actor: ContentActor,
  now: Date = new Date(),
): Promise<CommandOutcome> {
  switch (command.intent) {
    case "guardar":
      return saveDraft(collection, { id: id ?? undefined, data: command.data, expectedVersion: command.version }, actor, now);
    case "publicar": {
      // Unchanged since the last publish: publish() answers that there is nothing new.
      const unchanged = entry && entry.draft === null && entry.version === command.version && sameData(entry.published, command.data);
      const saved = unchanged ? ok(entry) : await saveIfChanged(collection, entry, id, command.data, command.version, actor, now);
      if (!saved.ok) return saved;
      return publish(collection, saved.value.id, actor, saved.value.version, now);
    }
    case "programar": {
      if (command.at.getTime() <= now.getTime()) return invalid({ fieldErrors: { programada: ["Elija una fecha y hora futuras, o publique ahora."] } });
      const saved = await saveIfChanged(collection, entry, id, command.data, command.version, actor, now);
      if (!saved.ok) return saved;
      return schedule(collection, saved.value.id, command.at, actor, saved.value.version, now);
    }
    case "cancelar-programacion":
      if (!id) return invalid("Guarde primero el registro.");
      return unschedule(collection, id, now);
    case "descartar":
      if (!id) return invalid("Guarde primero el registro.");
      return discardDraft(collection, id, command.version, now);
    case "eliminar": {
      if (!id) return invalid("Guarde primero el registro.");
      const deleted = await deleteEntry(collection, id);
      return deleted.ok ? ok("eliminado" as const) : deleted;
    }
  }
}
