import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";

// `npm run admin:create` end to end on a real PGlite directory under a temporary DATA_DIR, the way
// the command runs it (it opens, migrates and closes the database itself). The lock owner that
// stands for a running server is a real live process.

// getEnv() caches the environment on first use, so DATA_DIR is set before anything reads it. The
// command always uses the embedded database here, even when TEST_DATABASE_URL is set.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("admin-create"));

import { DatabaseInUseError, getDatabase, openDatabase, useDatabase } from "~/db/client.server";
import { session, user } from "~/db/schema/auth";
import { getEnv } from "~/lib/env.server";
import { requestMeta } from "../../../tests/support/auth-requests";
import { signIn, signInStaff } from "./sign-in.server";
import { runAdminCreate } from "./admin-create.server";

const dbDir = path.join(dataDir, "db");
const lockFile = `${dbDir}.lock`;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Opens the command's database in this process, runs `check`, and closes it again. */
async function withDatabase<T>(check: () => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: dbDir });
  useDatabase(database);
  try {
    return await check();
  } finally {
    await database.close();
    useDatabase(undefined);
  }
}

async function liveProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return child;
}

const EMAIL = "Jefa.Taller@Forja.mx";
const FIRST = "Panel-Forja-Primera-1";
const SECOND = "Panel-Forja-Segunda-2";

describe("runAdminCreate", () => {
  it("uses the temporary DATA_DIR", () => {
    expect(getEnv().dataDir).toBe(path.resolve(dataDir));
    expect(getEnv().DATABASE_URL).toBeUndefined();
  });

  it("refuses bad input in Spanish without touching the data directory", async () => {
    await expect(runAdminCreate({ email: "no-es-correo", password: "corta", name: "A" })).rejects.toThrow(
      /--email debe ser un correo válido\n--password debe tener al menos 8 caracteres\n--name debe tener al menos 2 caracteres/,
    );
    await expect(runAdminCreate({ email: "a@b.mx", password: "PASSWORD123", name: "Ana" })).rejects.toThrow("--password es una contraseña demasiado común");
    await expect(runAdminCreate({ email: "a@b.mx", password: "x".repeat(129), name: "Ana" })).rejects.toThrow("--password no puede tener más de 128 caracteres");
    await expect(runAdminCreate({})).rejects.toThrow(/falta --password/);
    expect(fs.existsSync(dbDir)).toBe(false);
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("creates the staff account on a fresh directory, then releases the database", async () => {
    const message = await runAdminCreate({ email: EMAIL, password: FIRST, name: "Jefa de Taller" });
    expect(message).toBe("Cuenta del personal creada: jefa.taller@forja.mx. Entre en /admin/login.");
    expect(fs.existsSync(lockFile)).toBe(false);
    expect(() => getDatabase()).toThrow();

    await withDatabase(async () => {
      const rows = await getDatabase().db.select().from(user).where(eq(user.email, "jefa.taller@forja.mx"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ role: "admin", emailVerified: true, name: "Jefa de Taller", banned: false });
      const staff = await signInStaff(requestMeta("/admin/login"), { email: "jefa.taller@forja.mx", password: FIRST });
      expect(staff.ok).toBe(true);
      if (staff.ok) expect(staff.value.user.role).toBe("admin");
    });
  });

  it("is idempotent: running again updates the password and name and ends the staff's sessions", async () => {
    const message = await runAdminCreate({ email: "jefa.taller@forja.mx", password: SECOND, name: "Jefa General" });
    expect(message).toBe("Cuenta del personal actualizada (contraseña y nombre): jefa.taller@forja.mx. Sus sesiones abiertas se cerraron.");
    expect(await runAdminCreate({ email: EMAIL, password: SECOND, name: "Jefa General" })).toMatch(/^Cuenta del personal actualizada/);

    await withDatabase(async () => {
      const { db } = getDatabase();
      const rows = await db.select().from(user).where(eq(user.email, "jefa.taller@forja.mx"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: "Jefa General", role: "admin" });
      // The session opened in the previous test was ended by the update.
      expect(await db.select().from(session).where(eq(session.userId, rows[0].id))).toHaveLength(0);
      expect((await signIn(requestMeta("/admin/login"), { email: "jefa.taller@forja.mx", password: FIRST })).ok).toBe(false);
      expect((await signInStaff(requestMeta("/admin/login"), { email: "jefa.taller@forja.mx", password: SECOND })).ok).toBe(true);
    });
  });

  it("refuses with a clear Spanish message while a server process holds the database, and damages nothing", async () => {
    const server = await liveProcess();
    fs.writeFileSync(lockFile, String(server.pid));

    const error = await runAdminCreate({ email: EMAIL, password: "Panel-Forja-Tercera-3", name: "Jefa" }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DatabaseInUseError);
    expect((error as Error).message).toBe(
      `La base de datos en ${dbDir} está en uso por el proceso ${server.pid} (probablemente el servidor de Forja). ` +
        "Deténgalo y vuelva a intentarlo, o use DATABASE_URL con un servidor PostgreSQL.",
    );
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(server.pid));
    expect(() => getDatabase()).toThrow();

    // The server stops (its lock stays behind, as after a crash): the command now works and the
    // earlier account and password are intact until it changes them.
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
    expect(fs.existsSync(lockFile)).toBe(true);
    await withDatabase(async () => {
      expect((await signIn(requestMeta("/admin/login"), { email: EMAIL, password: SECOND })).ok).toBe(true);
    });
    expect(await runAdminCreate({ email: EMAIL, password: "Panel-Forja-Tercera-3", name: "Jefa" })).toMatch(/^Cuenta del personal actualizada/);
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("takes over a stale lock left by a dead process (PID 999999)", async () => {
    fs.writeFileSync(lockFile, "999999");
    expect(await runAdminCreate({ email: "segundo@forja.mx", password: "Panel-Forja-Otro-4", name: "Segundo" })).toBe(
      "Cuenta del personal creada: segundo@forja.mx. Entre en /admin/login.",
    );
    expect(fs.existsSync(lockFile)).toBe(false);
    await withDatabase(async () => {
      expect((await signInStaff(requestMeta("/admin/login"), { email: "segundo@forja.mx", password: "Panel-Forja-Otro-4" })).ok).toBe(true);
      expect((await signInStaff(requestMeta("/admin/login"), { email: EMAIL, password: "Panel-Forja-Tercera-3" })).ok).toBe(true);
    });
  });
});
