import { eq, sql } from "drizzle-orm";
import { createLiveCache, noteLocalChange } from "~/db/change-feed.server";
import { getDb } from "~/db/client.server";
import { systemSettings } from "~/db/schema/settings";
import { getEnv } from "~/lib/env.server";
import { invalid, ok, type FieldErrors, type Result } from "~/lib/result";
import { DEFAULT_SETTINGS, SECRET_PATHS, SettingsSchema, type EnvironmentOverrides, type Settings } from "./settings-schema";

// The technical settings (issue 17 §3, docs/decisions/0057): stored as one row, read from memory while
// unchanged in any process (the change feed's 'sistema' topic), with what the environment fixes on
// top. Whoever uses a setting reads `getSettings()` at the time of use, so a PATCH takes effect in
// every running process without a restart.

const KEY = "settings";
const cache = createLiveCache<Settings>("sistema", 1);

type Section = keyof Settings;
const SECTIONS = Object.keys(DEFAULT_SETTINGS) as Section[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `patch`'s sections over `base`, field by field (a section's missing fields keep their value). */
function merged(base: Settings, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    const given = patch[section];
    out[section] = isObject(given) ? { ...base[section], ...given } : base[section];
  }
  return out;
}

async function readStored(): Promise<Settings> {
  const [row] = await getDb().select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.key, KEY));
  // Parsed over the defaults, so a field added later gets its default in an older row.
  const parsed = SettingsSchema.safeParse(merged(DEFAULT_SETTINGS, row?.value ?? {}));
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

/** Settings the environment fixes: the path ("meta.appURL", or a whole section) → its variable. */
export function environmentOverrides(source: Record<string, string | undefined> = process.env): { values: Partial<Record<string, unknown>>; fixed: EnvironmentOverrides } {
  const values: Record<string, unknown> = {};
  const fixed: Record<string, string> = {};
  if (source.PUBLIC_URL?.trim()) {
    values["meta.appURL"] = getEnv().publicUrl;
    fixed["meta.appURL"] = "PUBLIC_URL";
  }
  const from = source.MAIL_FROM?.trim();
  if (from) {
    const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
    values["meta.senderName"] = match ? match[1]!.trim() : "";
    values["meta.senderAddress"] = match ? match[2]!.trim() : from;
    fixed["meta.senderName"] = "MAIL_FROM";
    fixed["meta.senderAddress"] = "MAIL_FROM";
  }
  const smtp = source.SMTP_URL?.trim();
  if (smtp) {
    let url: URL | undefined;
    try {
      url = new URL(smtp);
    } catch {
      url = undefined;
    }
    values.smtp = {
      enabled: true,
      host: url?.hostname ?? "",
      port: Number(url?.port || (url?.protocol === "smtps:" ? 465 : 587)),
      username: decodeURIComponent(url?.username ?? ""),
      password: "",
      authMethod: "",
      tls: url?.protocol === "smtps:",
      localName: "",
    };
    fixed.smtp = "SMTP_URL";
  }
  const logDays = Number(source.LOGS_MAX_DAYS?.trim() || Number.NaN);
  if (Number.isInteger(logDays) && logDays >= 0) {
    values["logs.maxDays"] = logDays;
    fixed["logs.maxDays"] = "LOGS_MAX_DAYS";
  }
  return { values, fixed };
}

function withOverrides(settings: Settings, values: Partial<Record<string, unknown>>): Settings {
  const out = structuredClone(settings) as unknown as Record<string, Record<string, unknown>>;
  for (const [path, value] of Object.entries(values)) {
    const [section, field] = path.split(".") as [string, string | undefined];
    if (field === undefined) out[section] = value as Record<string, unknown>;
    else out[section] = { ...out[section], [field]: value };
  }
  return out as unknown as Settings;
}

/** The settings in effect now: stored, with what the environment fixes on top. */
export async function getSettings(): Promise<Settings> {
  const stored = await cache.get("settings", readStored);
  return withOverrides(stored, environmentOverrides().values);
}

/** The settings as the API answers them: secrets left out, and which ones the environment fixes. */
export async function settingsView(): Promise<Record<string, unknown>> {
  const settings = structuredClone(await getSettings()) as unknown as Record<string, Record<string, unknown>>;
  for (const path of SECRET_PATHS) {
    const [section, field] = path.split(".") as [string, string];
    delete settings[section]![field];
  }
  return { ...settings, fixedByEnvironment: environmentOverrides().fixed };
}

/** A value the environment fixes, changed by a PATCH: refused with the variable's name. */
function overriddenChanges(patch: Record<string, unknown>, effective: Settings, fixed: EnvironmentOverrides): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, variable] of Object.entries(fixed)) {
    const [section, field] = path.split(".") as [Section, string | undefined];
    const given = patch[section];
    if (!isObject(given)) continue;
    const current = effective[section] as Record<string, unknown>;
    const fields = field === undefined ? Object.keys(given) : field in given ? [field] : [];
    for (const name of fields) {
      if (name === "password" || given[name] === current[name]) continue;
      errors[`${section}.${name}`] = [`Este valor lo fija la variable de entorno ${variable}: cámbielo ahí.`];
    }
  }
  return errors;
}

/**
 * Applies a PATCH (PocketBase's: any sections, any of their fields). A secret left out or sent
 * empty keeps the stored one. Field errors are keyed "section.field".
 */
export async function patchSettings(patch: unknown): Promise<Result<Record<string, unknown>>> {
  if (!isObject(patch)) return invalid("Envíe los ajustes como un objeto JSON.");
  const stored = await readStored();
  const environment = environmentOverrides();
  const fixedErrors = overriddenChanges(patch, withOverrides(stored, environment.values), environment.fixed);
  if (Object.keys(fixedErrors).length) return invalid({ fieldErrors: fixedErrors });
  const next = merged(stored, patch) as Record<string, Record<string, unknown>>;
  for (const path of SECRET_PATHS) {
    const [section, field] = path.split(".") as [Section, string];
    const given = (patch[section] as Record<string, unknown> | undefined)?.[field];
    if (given === undefined || given === "") next[section]![field] = (stored[section] as Record<string, unknown>)[field];
  }
  const parsed = SettingsSchema.safeParse(next);
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.slice(0, 2).join(".") || "settings";
      (fieldErrors[key] ??= []).push(issue.message);
    }
    return invalid({ fieldErrors });
  }
  // One statement, committed on its own; this process stops using its copy at once (the
  // notification reaches the others, and comes back here a moment later).
  await getDb()
    .insert(systemSettings)
    .values({ key: KEY, value: parsed.data })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value: parsed.data, updatedAt: sql`now()` } });
  noteLocalChange("sistema");
  return ok(await settingsView());
}
