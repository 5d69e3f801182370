import { invalid, ok, type Result } from "~/lib/result";
import { findApiUser } from "./api-accounts.server";
import { isStaffRole } from "./staff-roles";
import { listLinkedProviders, type LinkedProvider } from "./provider-sign-in.server";

// The user as the seed's content-service API shows it (GET /api/users/me, and `user` in every auth
// answer, docs/decisions/0017): the users-permissions user's own fields, the relations asked for.

/** Related data `?populate=…` may include (`*` is all of them). */
export const USER_POPULATE = ["role", "profile", "providers"] as const;
export type UserPopulate = (typeof USER_POPULATE)[number];

export function parsePopulate(value: string | null): Result<UserPopulate[]> {
  const requested = (value ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  if (requested.includes("*")) return ok([...USER_POPULATE]);
  const unknown = requested.filter((part) => !(USER_POPULATE as readonly string[]).includes(part));
  if (unknown.length) return invalid(`populate no admite: ${unknown.join(", ")}. Valores válidos: ${USER_POPULATE.join(", ")} o *.`);
  return ok([...new Set(requested)] as UserPopulate[]);
}

export interface ApiUserJson {
  id: string;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: Date;
  updatedAt: Date;
  role?: { id: string; documentId: string; name: string; description: string; type: string };
  profile?: { company: string | null; phone: string | null };
  providers?: LinkedProvider[];
}

const ROLES = {
  customer: { name: "Authenticated", description: "Cliente con cuenta en Forja.", type: "authenticated" },
  staff: { name: "Staff", description: "Personal de Forja.", type: "staff" },
};

/** The user with the relations asked for; null when there is no such account (the route answers 401). */
export async function getCurrentUserPayload(userId: string | null, populate: UserPopulate[]): Promise<ApiUserJson | null> {
  if (!userId) return null;
  const details = await findApiUser(userId);
  if (!details) return null;
  const role = isStaffRole(details.role) ? ROLES.staff : ROLES.customer;
  return {
    id: details.id,
    documentId: details.id,
    username: details.name,
    email: details.email,
    provider: details.provider,
    confirmed: details.emailVerified,
    blocked: details.blocked,
    createdAt: details.createdAt,
    updatedAt: details.updatedAt,
    ...(populate.includes("role") ? { role: { id: role.type, documentId: role.type, ...role } } : {}),
    ...(populate.includes("profile") ? { profile: { company: details.company, phone: details.phone } } : {}),
    ...(populate.includes("providers") ? { providers: (await listLinkedProviders(details.id)).providers } : {}),
  };
}
