import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { account, user } from "~/db/schema/auth";
import { STAFF_ROLE, getAuth } from "./auth.server";

// Staff accounts are never created through the web: only `npm run admin:create` (admin-create.server.ts).

/** Creates the staff account or updates its password and name; either way its open sessions end. */
export async function upsertStaffAccount(input: { email: string; password: string; name: string }): Promise<"created" | "updated"> {
  const context = await getAuth().$context;
  const db = getDb();
  const email = input.email.toLowerCase();
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  const hash = await context.password.hash(input.password);
  if (!existing) {
    const created = await context.internalAdapter.createUser({ email, name: input.name, emailVerified: true, role: STAFF_ROLE }, { method: "admin" });
    await context.internalAdapter.linkAccount({ userId: created.id, providerId: "credential", accountId: created.id, password: hash });
    return "created";
  }
  await db.update(user).set({ name: input.name, role: STAFF_ROLE, emailVerified: true, banned: false, updatedAt: new Date() }).where(eq(user.id, existing.id));
  const [credential] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")))
    .limit(1);
  if (credential) await context.internalAdapter.updatePassword(existing.id, hash);
  else await context.internalAdapter.linkAccount({ userId: existing.id, providerId: "credential", accountId: existing.id, password: hash });
  await context.internalAdapter.deleteUserSessions(existing.id);
  return "updated";
}
