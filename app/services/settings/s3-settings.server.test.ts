import { afterEach, describe, expect, it, vi } from "vitest";
import { setupTestDatabaseWithChangeFeed } from "../../../tests/support/test-database";
import { s3ConfigFor } from "./s3-settings.server";
import { DEFAULT_S3_SETTINGS } from "./settings-schema";
import { environmentOverrides, getSettings, patchSettings, settingsView } from "./settings.server";

// The `s3` and `backups.s3` settings (issue 17 §4, docs/decisions/0059) on a real database: secrets
// written and never answered, a nested PATCH merged field by field, Spanish validation when enabled,
// the S3_* variables fixing both sections, and s3ConfigFor reading them at the time of use.

setupTestDatabaseWithChangeFeed();
afterEach(() => {
  vi.unstubAllEnvs();
});

const BUCKET = { enabled: true, bucket: "forja-archivos", region: "us-east-1", endpoint: "https://s3.forja.example", accessKey: "AKIAFORJA", secret: "Secreto-S3-1", forcePathStyle: true };

function noS3Environment() {
  for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY", "S3_SECRET", "S3_FORCE_PATH_STYLE"]) vi.stubEnv(name, "");
}

describe("s3 settings", () => {
  it("start disabled: no bucket for files or backups", async () => {
    noS3Environment();
    expect((await getSettings()).s3).toEqual(DEFAULT_S3_SETTINGS);
    expect((await getSettings()).backups.s3).toEqual(DEFAULT_S3_SETTINGS);
    expect(await s3ConfigFor("files")).toBeNull();
    expect(await s3ConfigFor("backups")).toBeNull();
  });

  it("write both secrets but never answer them, and merge a nested PATCH keeping the stored secret", async () => {
    noS3Environment();
    const saved = await patchSettings({ s3: BUCKET, backups: { s3: { ...BUCKET, bucket: "forja-respaldos", secret: "Secreto-Respaldos-2" } } });
    expect(saved.ok).toBe(true);
    const view = (await settingsView()) as { s3: Record<string, unknown>; backups: { s3: Record<string, unknown>; cron: string } };
    expect(view.s3).toEqual({ enabled: true, bucket: "forja-archivos", region: "us-east-1", endpoint: "https://s3.forja.example", accessKey: "AKIAFORJA", forcePathStyle: true });
    expect(view.backups.s3).not.toHaveProperty("secret");
    expect(view.backups.s3).toMatchObject({ bucket: "forja-respaldos" });
    expect(JSON.stringify(view)).not.toContain("Secreto-");
    expect(saved.ok && JSON.stringify(saved.value)).not.toContain("Secreto-");

    // PocketBase's PATCH: only the bucket changes; the rest of backups.s3 (and backups) stays.
    expect((await patchSettings({ backups: { s3: { bucket: "forja-respaldos-2" } } })).ok).toBe(true);
    const settings = await getSettings();
    expect(settings.backups.s3).toEqual({ ...BUCKET, bucket: "forja-respaldos-2", secret: "Secreto-Respaldos-2" });
    expect(settings.backups.cron).toBe("0 9 * * *");
    expect(settings.s3.secret).toBe("Secreto-S3-1");
    expect((await patchSettings({ s3: { secret: "" } })).ok).toBe(true);
    expect((await getSettings()).s3.secret).toBe("Secreto-S3-1");
    expect(await s3ConfigFor("files")).toEqual(BUCKET);
    expect(await s3ConfigFor("backups")).toEqual({ ...BUCKET, bucket: "forja-respaldos-2", secret: "Secreto-Respaldos-2" });

    // Disabled again: s3ConfigFor answers null at once (the setting is read at the time of use).
    expect((await patchSettings({ s3: { enabled: false }, backups: { s3: { enabled: false } } })).ok).toBe(true);
    expect(await s3ConfigFor("files")).toBeNull();
    expect(await s3ConfigFor("backups")).toBeNull();
  });

  it("refuse an enabled bucket without its connection, in Spanish, by the field's path", async () => {
    noS3Environment();
    const before = await getSettings();
    const refused = await patchSettings({ backups: { s3: { enabled: true, bucket: "", endpoint: "s3.forja.example" } }, s3: { enabled: true, bucket: "", region: "", accessKey: " ", secret: "x" } });
    if (refused.ok || refused.kind !== "invalid") throw new Error("expected invalid");
    expect(refused.fieldErrors["backups.s3.bucket"]).toEqual(["Escriba el nombre del bucket."]);
    expect(refused.fieldErrors["backups.s3.endpoint"]?.[0]).toMatch(/^Escriba la dirección completa del servicio, con http:\/\/ o https:\/\//);
    expect(refused.fieldErrors["s3.bucket"]).toEqual(["Escriba el nombre del bucket."]);
    expect(refused.fieldErrors["s3.region"]).toEqual(["Escriba la región, por ejemplo us-east-1."]);
    expect(refused.fieldErrors["s3.accessKey"]).toEqual(["Escriba la clave de acceso."]);
    expect(refused.fieldErrors).not.toHaveProperty("s3.secret");
    expect(await getSettings()).toEqual(before);
  });

  it("let the S3_* variables fix both sections (one bucket, two prefixes), refusing changes by name", async () => {
    vi.stubEnv("S3_BUCKET", "forja-entorno");
    vi.stubEnv("S3_ENDPOINT", "http://127.0.0.1:9000");
    vi.stubEnv("S3_REGION", "mx-central-1");
    vi.stubEnv("S3_ACCESS_KEY", "CLAVE-ENTORNO");
    vi.stubEnv("S3_SECRET", "Secreto-Entorno-3");
    vi.stubEnv("S3_FORCE_PATH_STYLE", "true");
    const expected = { enabled: true, bucket: "forja-entorno", region: "mx-central-1", endpoint: "http://127.0.0.1:9000", accessKey: "CLAVE-ENTORNO", secret: "Secreto-Entorno-3", forcePathStyle: true };
    expect(environmentOverrides().fixed).toMatchObject({ s3: "S3_BUCKET", "backups.s3": "S3_BUCKET" });
    expect(await s3ConfigFor("files")).toEqual(expected);
    expect(await s3ConfigFor("backups")).toEqual(expected);
    const view = (await settingsView()) as { fixedByEnvironment: Record<string, string> };
    expect(view.fixedByEnvironment).toMatchObject({ s3: "S3_BUCKET", "backups.s3": "S3_BUCKET" });
    expect(JSON.stringify(view)).not.toContain("Secreto-Entorno-3");
    // Sending back what is shown is fine; changing it is refused naming the variable.
    expect((await patchSettings({ s3: { bucket: "forja-entorno" }, backups: { cronMaxKeep: 5, s3: { region: "mx-central-1" } } })).ok).toBe(true);
    const refused = await patchSettings({ s3: { bucket: "otro" }, backups: { s3: { enabled: false } } });
    if (refused.ok || refused.kind !== "invalid") throw new Error("expected invalid");
    expect(refused.fieldErrors["s3.bucket"]).toEqual(["Este valor lo fija la variable de entorno S3_BUCKET: cámbielo ahí."]);
    expect(refused.fieldErrors["backups.s3.enabled"]).toEqual(["Este valor lo fija la variable de entorno S3_BUCKET: cámbielo ahí."]);
  });
});
