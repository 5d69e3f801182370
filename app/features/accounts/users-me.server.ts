import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { invalid, ok, type Result } from "~/lib/result";
import type { SessionUser } from "./accounts.server";
import { listLinkedProviders } from "./provider-sign-in.server";

// GET /api/users/me: the signed-in user as the API returns it.

/** Related data `GET /api/users/me?populate=…` may include. Billing data joins when checkout exists. */
export const USER_POPULATE = ["profile", "providers"] as const;
export type UserPopulate = (typeof USER_POPULATE)[number];

export function parsePopulate(value: string | null): Result<UserPopulate[]> {
  const requested = (value ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  const unknown = requested.filter((part) => !(USER_POPULATE as readonly string[]).includes(part));
  if (unknown.length) return invalid(`populate no admite: ${unknown.join(", ")}. Valores válidos: ${USER_POPULATE.join(", ")}.`);
  return ok(requested as UserPopulate[]);
}

/** The user with the related data asked for; null for a guest (the route answers 401). */
export async function getCurrentUserPayload(current: SessionUser | null, populate: UserPopulate[]) {
  if (!current) return null;
  const [row] = await getDb().select({ createdAt: user.createdAt }).from(user).where(eq(user.id, current.id)).limit(1);
  return {
    id: current.id,
    name: current.name,
    email: current.email,
    emailVerified: current.emailVerified,
    role: current.role,
    createdAt: row?.createdAt ?? null,
    ...(populate.includes("profile") ? { profile: { company: current.company, phone: current.phone } } : {}),
    ...(populate.includes("providers") ? { providers: (await listLinkedProviders(current.id)).providers } : {}),
  };
}
