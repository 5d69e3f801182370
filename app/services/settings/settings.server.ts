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

/** `given` over `base`, field by field at any depth (PocketBase's PATCH: `backups: {s3: {bucket}}` keeps the rest). */
function mergedObject(base: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [name, value] of Object.entries(given)) out[name] = isObject(value) && isObject(base[name]) ? mergedObject(base[name], value) : value;
  return out;
}

/** `patch`'s sections over `base`, field by field (a section's missing fields keep their value). */
function merged(base: Settings, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    const given = patch[section];
    out[section] = isObject(given) ? mergedObject(base[section] as Record<string, unknown>, given) : base[section];
  }
  return out;
}

/** The value at a dotted path ("backups.s3.secret"), or undefined. */
function valueAt(source: unknown, path: string): unknown {
  let value = source;
  for (const name of path.split(".")) value = isObject(value) ? value[name] : undefined;
  return value;
}

/** `target` (a fresh copy) with `value` at a dotted path; objects on the way are copied, not shared. */
function withValueAt(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [name, ...rest] = path.split(".") as [string, ...string[]];
  if (!rest.length) return { ...target, [name]: value };
  const inner = isObject(target[name]) ? target[name] : {};
  return { ...target, [name]: withValueAt(inner, rest.join("."), value) };
}

function withoutValueAt(target: Record<string, unknown>, path: string): void {
  const names = path.split(".");
  const parent = valueAt(target, names.slice(0, -1).join("."));
  if (isObject(parent)) delete parent[names.at(-1)!];
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
  // One bucket for both (docs/decisions/0059): stored files under "files/", backups under "backups/".
  const bucket = source.S3_BUCKET?.trim();
  if (bucket) {
    const s3 = {
      enabled: true,
      bucket,
      region: source.S3_REGION?.trim() || "us-east-1",
      endpoint: source.S3_ENDPOINT?.trim() ?? "",
      accessKey: source.S3_ACCESS_KEY?.trim() ?? "",
      secret: source.S3_SECRET ?? "",
      forcePathStyle: /^(1|true|yes|on)$/i.test(source.S3_FORCE_PATH_STYLE?.trim() ?? ""),
    };
    values.s3 = s3;
    values["backups.s3"] = { ...s3 };
    fixed.s3 = "S3_BUCKET";
    fixed["backups.s3"] = "S3_BUCKET";
  }
  const logDays = Number(source.LOGS_MAX_DAYS?.trim() || Number.NaN);
  if (Number.isInteger(logDays) && logDays >= 0) {
    values["logs.maxDays"] = logDays;
    fixed["logs.maxDays"] = "LOGS_MAX_DAYS";
  }
  return { values, fixed };
}

function withOverrides(settings: Settings, values: Partial<Record<string, unknown>>): Settings {
  let out = structuredClone(settings) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(values)) out = withValueAt(out, path, value);
  return out as unknown as Settings;
}

/** The settings in effect now: stored, with what the environment fixes on top. */
export async function getSettings(): Promise<Settings> {
  const stored = await cache.get("settings", readStored);
  return withOverrides(stored, environmentOverrides().values);
}

/** The settings as the API answers them: secrets left out, and which ones the environment fixes. */
export async function settingsView(): Promise<Record<string, unknown>> {
  const settings = structuredClone(await getSettings()) as unknown as Record<string, unknown>;
  for (const path of SECRET_PATHS) withoutValueAt(settings, path);
  return { ...settings, fixedByEnvironment: environmentOverrides().fixed };
}

/** A value the environment fixes, changed by a PATCH: refused with the variable's name. */
function overriddenChanges(patch: Record<string, unknown>, effective: Settings, fixed: EnvironmentOverrides): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, variable] of Object.entries(fixed)) {
    const given = valueAt(patch, path);
    if (given === undefined) continue;
    const current = valueAt(effective, path);
    // A whole section (or sub-section) fixed: each field given is compared; a single field: itself.
    const fields: [string, unknown, unknown][] =
      isObject(given) && isObject(current) ? Object.entries(given).map(([name, value]) => [`${path}.${name}`, value, current[name]]) : [[path, given, current]];
    for (const [fieldPath, value, now] of fields) {
      if ((SECRET_PATHS as readonly string[]).includes(fieldPath) || value === now) continue;
      errors[fieldPath] = [`Este valor lo fija la variable de entorno ${variable}: cámbielo ahí.`];
    }
  }
  return errors;
}

/**
 * Applies a PATCH (PocketBase's: any sections, any of their fields). A secret left out or sent
 * empty keeps the stored one. Field errors are keyed by dotted path ("smtp.port", "backups.s3.bucket").
 */
export async function patchSettings(patch: unknown): Promise<Result<Record<string, unknown>>> {
  if (!isObject(patch)) return invalid("Envíe los ajustes como un objeto JSON.");
  const stored = await readStored();
  const environment = environmentOverrides();
  const fixedErrors = overriddenChanges(patch, withOverrides(stored, environment.values), environment.fixed);
  if (Object.keys(fixedErrors).length) return invalid({ fieldErrors: fixedErrors });
  let next = merged(stored, patch);
  for (const path of SECRET_PATHS) {
    const given = valueAt(patch, path);
    if (given === undefined || given === "") next = withValueAt(next, path, valueAt(stored, path));
  }
  const parsed = SettingsSchema.safeParse(next);
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      // Named by the field's dotted path ("smtp.port", "backups.s3.bucket"), up to any list index.
      const index = issue.path.findIndex((name) => typeof name !== "string");
      const key = (index === -1 ? issue.path : issue.path.slice(0, index)).join(".") || "settings";
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
