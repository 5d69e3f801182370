import { randomBytes } from "node:crypto";
import { and, asc, eq, exists, gt, inArray, like, max, ne, sql, type AnyColumn } from "drizzle-orm";
import { getDb, withTransaction } from "~/db/client.server";
import { account, session, user, verification } from "~/db/schema/auth";
import { conflict, forbiddenResult, invalid, notFoundResult, ok, type Result } from "~/lib/result";
import type { SessionUser } from "./accounts.server";
import { sendStaffInvitationEmail } from "./account-emails.server";
import { getAuth } from "./auth.server";
import { ADMIN_ROLE, INVITATION_HOURS, STAFF_ROLES, isStaffRole, staffMayUse, type StaffRole, type StaffState } from "./staff-roles";

// Staff accounts (/admin/personal, docs/decisions/0040): the list, invitations, roles and
// deactivation. Only a role with the "personal" area (admins) may use them. An invitation is a
// staff account without a password plus a one-time link: the token is better-auth's own
// password-reset token (its verification table), so /admin/bienvenida sets the first password
// through the same reset that /recuperar/nueva uses. Deactivating does what better-auth's admin
// ban does (blocked, every session deleted): the pages, the record API's tokens (they name a
// session, docs/decisions/0014) and realtime all stop at once.


export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  state: StaffState;
  /** When its most recent open session began (sign-out and deactivation end them): null for none. */
  lastSignInAt: Date | null;
  createdAt: Date;
}

const NOT_ALLOWED = "Solo una cuenta de administración puede gestionar al personal.";
const LAST_ADMIN = "Debe quedar al menos una cuenta de administración activa. Dé ese rol a otra persona antes de cambiar esta cuenta.";
const NOT_FOUND = "No encontramos esa cuenta del personal.";

const mayManage = (actor: SessionUser) => staffMayUse(actor.role, "personal");

/** The account's password (an invitation not yet accepted has none, and cannot sign in). */
const credentialOf = (userId: AnyColumn) =>
  getDb().select({ one: sql`1` }).from(account).where(and(eq(account.userId, userId), eq(account.providerId, "credential")));

/** Every staff account, admins first, then by name. */
export async function listStaff(): Promise<StaffMember[]> {
  const db = getDb();
  const lastSession = db
    .select({ userId: session.userId, at: max(session.createdAt).as("at") })
    .from(session)
    .groupBy(session.userId)
    .as("last_session");
  const passwords = db.select({ userId: account.userId }).from(account).where(eq(account.providerId, "credential")).as("passwords");
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      banned: user.banned,
      createdAt: user.createdAt,
      lastSignInAt: lastSession.at,
      hasPassword: sql<boolean>`${passwords.userId} is not null`,
    })
    .from(user)
    .leftJoin(lastSession, eq(lastSession.userId, user.id))
    .leftJoin(passwords, eq(passwords.userId, user.id))
    .where(inArray(user.role, [...STAFF_ROLES]))
    .orderBy(sql`${user.role} <> ${ADMIN_ROLE}`, asc(user.name));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as StaffRole,
    state: row.banned ? "desactivada" : row.hasPassword ? "activa" : "invitada",
    lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt) : null,
    createdAt: row.createdAt,
  }));
}

/** A new one-time link for `userId` (better-auth's reset token, valid INVITATION_HOURS), mailed through the outbox. */
async function sendInvitation(member: { id: string; name: string; email: string }, invitedBy: string): Promise<void> {
  const token = randomBytes(24).toString("base64url");
  const { internalAdapter } = await getAuth().$context;
  await internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: member.id,
    expiresAt: new Date(Date.now() + INVITATION_HOURS * 60 * 60 * 1000),
  });
  await sendStaffInvitationEmail(member, token, { invitedBy, hours: INVITATION_HOURS });
}

/** Invites a person to the staff with `role`: an account without a password and an emailed link to set one. */
export async function inviteStaff(input: { actor: SessionUser; name: string; email: string; role: StaffRole }): Promise<Result<{ id: string }>> {
  if (!mayManage(input.actor)) return forbiddenResult(NOT_ALLOWED);
  const email = input.email.trim().toLowerCase();
  const [existing] = await getDb().select({ role: user.role }).from(user).where(eq(user.email, email)).limit(1);
  if (existing) {
    const message = isStaffRole(existing.role)
      ? "Esa persona ya forma parte del personal. Búsquela en la lista."
      : "Ese correo ya es de una cuenta de cliente. Use otro correo para la cuenta del personal.";
    return invalid({ fieldErrors: { email: [message] } });
  }
  const { internalAdapter } = await getAuth().$context;
  let created: { id: string };
  try {
    created = await internalAdapter.createUser({ email, name: input.name.trim(), emailVerified: true, role: input.role }, { method: "admin" });
  } catch (error) {
    // Two invitations for one email at the same moment: the database's unique email decides.
    const [again] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    if (again) return invalid({ fieldErrors: { email: ["Esa persona ya forma parte del personal. Búsquela en la lista."] } });
    throw error;
  }
  await sendInvitation({ id: created.id, name: input.name.trim(), email }, input.actor.name);
  return ok({ id: created.id });
}

/** A fresh link for an invitation not yet accepted (the earlier links stop working). */
export async function resendStaffInvitation(input: { actor: SessionUser; userId: string }): Promise<Result<{ email: string }>> {
  if (!mayManage(input.actor)) return forbiddenResult(NOT_ALLOWED);
  const member = (await listStaff()).find((row) => row.id === input.userId);
  if (!member) return notFoundResult(NOT_FOUND);
  if (member.state !== "invitada") return conflict("Esa persona ya eligió su contraseña; no necesita otra invitación.");
  await getDb().delete(verification).where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, member.id)));
  await sendInvitation(member, input.actor.name);
  return ok({ email: member.email });
}

/**
 * Runs `change` for the staff account `userId` inside one transaction that holds every admin row,
 * refusing when it would leave no active admin (`keepsAdmin` says whether the account stays one).
 */
async function changeStaff(
  input: { actor: SessionUser; userId: string },
  keepsAdmin: boolean,
  change: (target: { id: string; role: string; banned: boolean }) => Promise<void>,
): Promise<Result> {
  if (!mayManage(input.actor)) return forbiddenResult(NOT_ALLOWED);
  return withTransaction(async () => {
    const db = getDb();
    // Locks the admins' rows: two admins demoting each other at once cannot both succeed.
    await db.select({ id: user.id }).from(user).where(eq(user.role, ADMIN_ROLE)).for("update");
    const [target] = await db.select({ id: user.id, role: user.role, banned: user.banned }).from(user).where(eq(user.id, input.userId)).for("update");
    if (!target || !isStaffRole(target.role)) return notFoundResult(NOT_FOUND);
    if (target.role === ADMIN_ROLE && !target.banned && !keepsAdmin) {
      const [{ others }] = await db
        .select({ others: sql<number>`count(*)::int` })
        .from(user)
        .where(and(eq(user.role, ADMIN_ROLE), eq(user.banned, false), ne(user.id, target.id), exists(credentialOf(user.id))));
      if (others === 0) return conflict(LAST_ADMIN);
    }
    await change(target);
    return ok();
  });
}

/** Gives a staff account another role; it applies to its open sessions and tokens at once. */
export async function setStaffRole(input: { actor: SessionUser; userId: string; role: StaffRole }): Promise<Result> {
  return changeStaff(input, input.role === ADMIN_ROLE, async (target) => {
    if (target.role === input.role) return;
    await getDb().update(user).set({ role: input.role, updatedAt: new Date() }).where(eq(user.id, target.id));
  });
}

/** Deactivates (blocked, every session and token ended at once) or reactivates a staff account. */
export async function setStaffActive(input: { actor: SessionUser; userId: string; active: boolean }): Promise<Result> {
  return changeStaff(input, input.active, async (target) => {
    const db = getDb();
    if (input.active) {
      await db.update(user).set({ banned: false, banReason: null, banExpires: null, updatedAt: new Date() }).where(eq(user.id, target.id));
      return;
    }
    await db.update(user).set({ banned: true, banReason: "Desactivada por administración", banExpires: null, updatedAt: new Date() }).where(eq(user.id, target.id));
    await db.delete(session).where(eq(session.userId, target.id));
    // A pending invitation dies too: its link must not revive the account.
    await db.delete(verification).where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, target.id)));
  });
}

/** What /admin/bienvenida shows for a link: whose invitation it is, or null when it is unknown, used, expired or the account is not active staff. */
export async function findStaffInvitation(token: string): Promise<{ name: string; email: string } | null> {
  if (!token) return null;
  const [row] = await getDb()
    .select({ name: user.name, email: user.email, role: user.role, banned: user.banned })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, `reset-password:${token}`), gt(verification.expiresAt, new Date())))
    .limit(1);
  if (!row || row.banned || !isStaffRole(row.role)) return null;
  return { name: row.name, email: row.email };
}
