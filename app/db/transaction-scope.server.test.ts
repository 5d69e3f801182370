import fs from "node:fs";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The transaction scope of app/db/client.server.ts (docs/decisions/0015) on a real database: every
// getDb() inside withTransaction joins one transaction, domain commands' own transactions nest as
// savepoints, a failed Result or a throw undoes all of it, and the work that must not happen for
// a rolled-back transaction (the mail worker's delivery, removing files) waits for the commit.

const dataDir = await vi.hoisted(async () => (await import("../../tests/support/test-env")).isolateTestEnv("transaction-scope"));

import { invalid, ok } from "~/lib/result";
import { enqueueMail, startMailWorker } from "~/services/mail/outbox.server";
import { closeTestDatabase, createTestDatabase } from "../../tests/support/test-database";
import { afterCommit, afterRollback, getDatabase, getDb, inTransactionScope, withTransaction, type Database } from "./client.server";
import { outbox } from "./schema/outbox";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await getDb().execute(sql`create table scope_probe (name text primary key)`);
});

afterAll(async () => {
  await closeTestDatabase(database);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const names = async () => ((await getDb().execute(sql`select name from scope_probe order by name`)) as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
const insert = (name: string) => getDb().execute(sql`insert into scope_probe (name) values (${name})`);
const clear = () => getDb().execute(sql`delete from scope_probe`);

describe("withTransaction", () => {
  it("gives getDb() the scope's transaction inside, and the database outside", async () => {
    await clear();
    expect(inTransactionScope()).toBe(false);
    const seenInside = await withTransaction(async () => {
      expect(inTransactionScope()).toBe(true);
      expect(getDb()).not.toBe(getDatabase().db);
      await insert("dentro");
      return names();
    });
    expect(seenInside).toEqual(["dentro"]);
    expect(getDb()).toBe(getDatabase().db);
    expect(await names()).toEqual(["dentro"]);
  });

  it("undoes everything, domain transactions included, when the work throws", async () => {
    await clear();
    await expect(
      withTransaction(async () => {
        await insert("a");
        // A domain command's own transaction becomes a savepoint of the scope.
        await getDb().transaction(async (tx) => {
          await tx.execute(sql`insert into scope_probe (name) values ('b')`);
        });
        throw new Error("falla el tercero");
      }),
    ).rejects.toThrow("falla el tercero");
    expect(await names()).toEqual([]);
  });

  it("undoes everything and answers the failure when the work answers a failed Result", async () => {
    await clear();
    const answer = await withTransaction(async () => {
      await insert("a");
      return invalid("No.");
    });
    expect(answer).toMatchObject({ ok: false, kind: "invalid" });
    expect(await names()).toEqual([]);
  });

  it("rolls back a nested scope alone when it fails, and the outer one goes on", async () => {
    await clear();
    const answer = await withTransaction(async () => {
      await insert("fuera");
      const inner = await withTransaction(async () => {
        await insert("dentro");
        return invalid("No.");
      });
      expect(inner.ok).toBe(false);
      return ok(await names());
    });
    expect(answer).toEqual(ok(["fuera"]));
    expect(await names()).toEqual(["fuera"]);
  });

  it("runs afterCommit work after a commit only, and afterRollback work after a rollback only", async () => {
    const ran: string[] = [];
    await withTransaction(async () => {
      await afterCommit(() => ran.push("commit-1"));
      afterRollback(() => ran.push("rollback-1"));
      expect(ran).toEqual([]);
      // Work after the commit runs outside the scope: its queries use the database.
      await afterCommit(() => ran.push(inTransactionScope() ? "dentro" : "fuera"));
      return ok();
    });
    await withTransaction(async () => {
      await afterCommit(() => ran.push("commit-2"));
      afterRollback(() => ran.push("rollback-2"));
      return invalid("No.");
    });
    expect(ran).toEqual(["commit-1", "fuera", "rollback-2"]);
    // Outside a scope, afterCommit runs at once and afterRollback never.
    await afterCommit(() => ran.push("sin-alcance"));
    afterRollback(() => ran.push("nunca"));
    expect(ran.at(-1)).toBe("sin-alcance");
  });

  it("keeps a savepoint's after-work apart: dropped or run on its own rollback, kept for the outer commit", async () => {
    const ran: string[] = [];
    await withTransaction(async () => {
      await withTransaction(async () => {
        await afterCommit(() => ran.push("commit-fallido"));
        afterRollback(() => ran.push("rollback-fallido"));
        return invalid("No.");
      });
      // The failed savepoint's rollback work has run; the outer transaction goes on.
      expect(ran).toEqual(["rollback-fallido"]);
      await withTransaction(async () => {
        await afterCommit(() => ran.push("commit-liberado"));
        afterRollback(() => ran.push("rollback-liberado"));
        return ok();
      });
      return ok();
    });
    expect(ran).toEqual(["rollback-fallido", "commit-liberado"]);
  });

  it("keeps concurrent work outside the scope out of its transaction", async () => {
    await clear();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const scope = withTransaction(async () => {
      await insert("del-alcance");
      await held;
      return invalid("No.");
    });
    // Started outside the scope: not part of it, so the rollback does not undo it.
    const outside = insert("de-fuera");
    release();
    await scope;
    await outside;
    expect(await names()).toEqual(["de-fuera"]);
  });
});

describe("the outbox inside a scope", () => {
  const mailFiles = () => {
    const dir = path.join(dataDir, "mail");
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(".eml")) : [];
  };
  const mail = (subject: string) => ({ to: "cliente@ejemplo.mx", subject, html: "<p>Hola</p>", text: "Hola" });
  const rowsWith = async (subject: string) => (await getDb().select({ n: count() }).from(outbox).where(eq(outbox.subject, subject)))[0]!.n;

  it("sends nothing for a rolled-back scope, even with the worker nudged inside it; sends after a commit", async () => {
    const worker = startMailWorker({ intervalMs: 60_000 });
    try {
      const before = mailFiles().length;
      await withTransaction(async () => {
        await enqueueMail(mail("Se deshace"));
        // Longer than the worker's nudge after a transactional insert (250 ms).
        await new Promise((resolve) => setTimeout(resolve, 400));
        return invalid("No.");
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await rowsWith("Se deshace")).toBe(0);
      expect(mailFiles().length).toBe(before);

      await withTransaction(async () => {
        await enqueueMail(mail("Se confirma"));
        return ok();
      });
      const deadline = Date.now() + 5_000;
      while (mailFiles().length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(mailFiles().length).toBe(before + 1);
      expect(await rowsWith("Se confirma")).toBe(1);
    } finally {
      await worker.stop();
    }
  });
});
