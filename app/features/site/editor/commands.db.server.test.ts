import { beforeAll, describe, expect, it } from "vitest";
import { getEntry } from "~/services/content/entries.server";
import { registerCollections } from "~/services/content/registry.server";
import { listVersions } from "~/services/content/versions.server";
import { setupTestDatabase } from "../../../../tests/support/test-database";
import { preguntas } from "../content-collections/preguntas";
import { paragraphsDocument } from "../content-collections/seed-rich-text";
import { runEditorCommand } from "./commands.server";
import { editorConflict } from "./editor.server";

// The editor's commands on a real database (PGlite): what is on screen is saved before it is
// published or scheduled, an unchanged record publishes nothing new, a stale copy is a conflict
// with the difference the conflict screen shows.

setupTestDatabase();
beforeAll(() => registerCollections([preguntas]));

const editor = { id: "editor-1", name: "Elena Editora" };
const question = (pregunta: string, categoria = "Materiales") => ({ pregunta, respuesta: paragraphsDocument(["Sí. Maquinamos titanio grado 5."]), categoria, orden: 10, publicado: true });
const now = new Date("2026-11-24T18:00:00Z");

describe("runEditorCommand", () => {
  it("creates a draft, publishes what is on screen, and refuses to publish nothing new", async () => {
    const created = await runEditorCommand(preguntas, null, null, { intent: "guardar", data: question("¿Maquinan titanio?"), version: undefined, autosave: false }, editor, now);
    expect(created.ok).toBe(true);
    if (!created.ok || created.value === "eliminado") return;
    const id = created.value.id;
    expect(created.value.state).toBe("borrador");

    const shown = question("¿Maquinan titanio grado 5?");
    const published = await runEditorCommand(preguntas, id, created.value, { intent: "publicar", data: shown, version: created.value.version }, editor, now);
    expect(published.ok && published.value !== "eliminado" && published.value.published).toMatchObject({ pregunta: "¿Maquinan titanio grado 5?" });
    expect((await listVersions(id)).map((version) => version.number)).toEqual([1]);

    const entry = await getEntry(preguntas, id);
    if (!entry.ok) throw new Error("missing");
    const again = await runEditorCommand(preguntas, id, entry.value, { intent: "publicar", data: shown, version: entry.value.version }, editor, now);
    expect(again).toMatchObject({ ok: false, kind: "conflict", message: "No hay cambios por publicar: la versión publicada ya es la más reciente." });
    expect(await listVersions(id)).toHaveLength(1);
  });

  it("schedules only in the future, saving what is on screen first", async () => {
    const created = await runEditorCommand(preguntas, null, null, { intent: "guardar", data: question("¿Hacen moldes?"), version: undefined, autosave: true }, editor, now);
    if (!created.ok || created.value === "eliminado") throw new Error("not created");
    const past = await runEditorCommand(preguntas, created.value.id, created.value, { intent: "programar", data: question("¿Hacen moldes?"), version: created.value.version, at: new Date(now.getTime() - 60_000) }, editor, now);
    expect(past).toMatchObject({ ok: false, kind: "invalid", fieldErrors: { programada: ["Elija una fecha y hora futuras, o publique ahora."] } });
    const at = new Date(now.getTime() + 3_600_000);
    const scheduled = await runEditorCommand(preguntas, created.value.id, created.value, { intent: "programar", data: question("¿Hacen moldes de inyección?"), version: created.value.version, at }, editor, now);
    expect(scheduled.ok && scheduled.value !== "eliminado" && [scheduled.value.state, scheduled.value.scheduledAt?.toISOString(), scheduled.value.draft?.pregunta]).toEqual(["programado", at.toISOString(), "¿Hacen moldes de inyección?"]);
  });

  it("answers a stale save with both versions and the changed fields, and deletes a record that is not fixed", async () => {
    const created = await runEditorCommand(preguntas, null, null, { intent: "guardar", data: question("¿Tienen inventario?"), version: undefined, autosave: false }, editor, now);
    if (!created.ok || created.value === "eliminado") throw new Error("not created");
    const { id, version } = created.value;
    const other = await runEditorCommand(preguntas, id, created.value, { intent: "guardar", data: question("¿Tienen inventario?", "Entregas"), version, autosave: true }, { id: "editor-2", name: "Ana López" }, now);
    expect(other.ok).toBe(true);
    const stale = await runEditorCommand(preguntas, id, created.value, { intent: "guardar", data: question("¿Tienen inventario?", "Almacén"), version, autosave: true }, editor, now);
    expect(stale.ok).toBe(false);
    if (stale.ok || !("current" in stale)) throw new Error("expected a conflict");
    const screen = editorConflict(preguntas, stale);
    expect(screen.savedBy).toBe("Ana López");
    expect(screen.version).toBe(version + 1);
    expect(screen.diff.map((change) => change.field)).toEqual(["categoria"]);

    expect(await runEditorCommand(preguntas, id, null, { intent: "eliminar" }, editor, now)).toEqual({ ok: true, value: "eliminado" });
    expect((await getEntry(preguntas, id)).ok).toBe(false);
  });
});
