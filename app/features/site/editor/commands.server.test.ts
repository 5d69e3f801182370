import { describe, expect, it } from "vitest";
import { parseEditorCommand, scheduleInstant } from "./commands.server";

const form = (fields: Record<string, string>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
};

describe("scheduleInstant", () => {
  it("reads a Mexico City date and hour as UTC (UTC−6, no daylight saving since 2022)", () => {
    expect(scheduleInstant("2026-12-01", "09:30")?.toISOString()).toBe("2026-12-01T15:30:00.000Z");
    expect(scheduleInstant("2026-06-15", "23:05")?.toISOString()).toBe("2026-06-16T05:05:00.000Z");
  });
  it("refuses days and hours that do not exist", () => {
    expect(scheduleInstant("2026-02-30", "09:30")).toBeNull();
    expect(scheduleInstant("2026-12-01", "24:00")).toBeNull();
    expect(scheduleInstant("mañana", "9")).toBeNull();
  });
});

describe("parseEditorCommand", () => {
  it("reads a save with its data, version and autosave flag", () => {
    const parsed = parseEditorCommand(form({ intent: "guardar", datos: '{"pregunta":"¿Hola?"}', version: "4", autoguardado: "1" }));
    expect(parsed).toEqual({ ok: true, value: { intent: "guardar", data: { pregunta: "¿Hola?" }, version: 4, autosave: true } });
  });
  it("reads a new record's save without a version", () => {
    const parsed = parseEditorCommand(form({ intent: "publicar", datos: "{}" }));
    expect(parsed).toEqual({ ok: true, value: { intent: "publicar", data: {}, version: undefined } });
  });
  it("refuses data that is not a JSON object, and a version that is not a number", () => {
    const bad: Record<string, string>[] = [{ intent: "guardar", datos: "[1]" }, { intent: "guardar", datos: "{" }, { intent: "guardar" }, { intent: "guardar", datos: "{}", version: "dos" }];
    for (const fields of bad) {
      const parsed = parseEditorCommand(form(fields));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok && parsed.kind === "invalid") expect(parsed.formErrors[0]).toMatch(/^No pudimos leer el formulario/);
    }
  });
  it("reads a schedule in Mexico City time, and says in Spanish what is missing", () => {
    const parsed = parseEditorCommand(form({ intent: "programar", datos: "{}", version: "2", fecha: "2026-12-01", hora: "10:00" }));
    expect(parsed.ok && parsed.value.intent === "programar" && parsed.value.at.toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(parseEditorCommand(form({ intent: "programar", datos: "{}", fecha: "2026-12-01" }))).toMatchObject({ ok: false, fieldErrors: { programada: ["Escriba la fecha y la hora de la publicación."] } });
    expect(parseEditorCommand(form({ intent: "programar", datos: "{}", fecha: "2026-13-01", hora: "10:00" }))).toMatchObject({ ok: false, fieldErrors: { programada: ["Escriba una fecha y una hora válidas."] } });
  });
  it("refuses an unknown intent", () => {
    expect(parseEditorCommand(form({ intent: "borrar-todo" }))).toMatchObject({ ok: false, formErrors: ["Acción desconocida."] });
  });
});
