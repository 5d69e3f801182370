import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { forbiddenResult, notFoundResult, ok, type Result } from "~/lib/result";
import { containsPattern } from "~/lib/sql-like";
import { isStaff, type SessionUser } from "./accounts.server";
import { CUSTOMER_ROLE, getAuth } from "./auth.server";

// The staff's list of customer accounts, and blocking one.

export interface CustomerRow {
  id: string;
  name: string;
  email: string;
  company: string | null;
  emailVerified: boolean;
  banned: boolean;
  createdAt: Date;
}

export const CUSTOMERS_PAGE_SIZE = 30;

export async function listCustomers(input: { search?: string; page: number }): Promise<{ rows: CustomerRow[]; total: number }> {
  const search = input.search?.trim();
  const where = and(
    eq(user.role, CUSTOMER_ROLE),
    search ? or(ilike(user.email, containsPattern(search)), ilike(user.name, containsPattern(search)), ilike(user.company, containsPattern(search))) : undefined,
  );
  const db = getDb();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        company: user.company,
        emailVerified: user.emailVerified,
        banned: user.banned,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(where)
      .orderBy(desc(user.createdAt))
      .limit(CUSTOMERS_PAGE_SIZE)
      .offset((Math.max(1, input.page) - 1) * CUSTOMERS_PAGE_SIZE),
    db.select({ total: count() }).from(user).where(where),
  ]);
  return { rows, total };
}

/**
 * Blocks (sessions revoked, sign-in refused) or unblocks a customer account. Staff only; staff
 * accounts cannot be blocked here. Does what better-auth's admin ban/unban endpoints do, through
 * its internal adapter, so the caller passes a typed actor instead of the staff's cookie.
 */
export async function setCustomerBlocked(input: { actor: SessionUser; userId: string; blocked: boolean }): Promise<Result> {
  if (!isStaff(input.actor)) return forbiddenResult("Esta cuenta no tiene acceso al panel de administración.");
  const [target] = await getDb().select({ role: user.role }).from(user).where(eq(user.id, input.userId)).limit(1);
  if (!target || target.role !== CUSTOMER_ROLE) return notFoundResult("No encontramos ese cliente.");
  const { internalAdapter } = await getAuth().$context;
  if (input.blocked) {
    await internalAdapter.updateUser(input.userId, { banned: true, banReason: "Bloqueado por el personal de Forja", banExpires: null, updatedAt: new Date() });
    await internalAdapter.deleteUserSessions(input.userId);
  } else {
    await internalAdapter.updateUser(input.userId, { banned: false, banReason: null, banExpires: null, updatedAt: new Date() });
  }
  return ok();
}
