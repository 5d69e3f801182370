import type PocketBase from "pocketbase";
import { expect } from "vitest";
import { setStaffRole } from "~/features/accounts/staff-members.server";
import { registeredCustomer, signedInStaff } from "./auth-requests";
import { sdkClient, sdkFailure } from "./sdk-client";

// The callers of a superuser-only endpoint (issue 17: backups, logs, crons, settings, collections):
// an admin, an editor, a sales person, a customer and a guest, each with the official SDK. Make the
// accounts in the test server's `prepare` (prepareSuperuserCallers), sign the clients in once the
// server runs (superuserCallers), and check a call's refusals with expectSuperusersOnly.

export const CALLER_PASSWORD = "Sistema-Forja-Seguro-7";

export type CallerName = "admin" | "editor" | "ventas" | "customer" | "guest";

function emails(label: string): Record<Exclude<CallerName, "guest">, string> {
  return {
    admin: `admin-${label}-${process.pid}@forja.mx`,
    editor: `editor-${label}-${process.pid}@forja.mx`,
    ventas: `ventas-${label}-${process.pid}@forja.mx`,
    customer: `cliente-${label}-${process.pid}@ejemplo.mx`,
  };
}

/** Creates the staff accounts (with their roles) and the customer; run it on the server's database. */
export async function prepareSuperuserCallers(label: string): Promise<void> {
  const email = emails(label);
  const admin = await signedInStaff(email.admin, CALLER_PASSWORD, "Administración Sistema");
  for (const role of ["editor", "ventas"] as const) {
    const created = await signedInStaff(email[role], CALLER_PASSWORD, `Personal ${role}`);
    const changed = await setStaffRole({ actor: admin.user, userId: created.user.id, role });
    if (!changed.ok) throw new Error(`could not make ${email[role]} ${role}`);
  }
  await registeredCustomer("Cliente Sistema", email.customer, CALLER_PASSWORD);
}

/** The five callers against `url`, signed in with the SDK. */
export async function superuserCallers(url: string, label: string): Promise<Record<CallerName, PocketBase>> {
  const email = emails(label);
  const clients = { admin: sdkClient(url), editor: sdkClient(url), ventas: sdkClient(url), customer: sdkClient(url), guest: sdkClient(url) };
  for (const role of ["admin", "editor", "ventas"] as const) await clients[role].collection("_superusers").authWithPassword(email[role], CALLER_PASSWORD);
  await clients.customer.collection("users").authWithPassword(email.customer, CALLER_PASSWORD);
  return clients;
}

/** `call` by every caller but the admin is refused as PocketBase refuses a non-superuser: 401 for a guest, 403 for the others. */
export async function expectSuperusersOnly(clients: Record<CallerName, PocketBase>, call: (client: PocketBase) => Promise<unknown>): Promise<void> {
  expect((await sdkFailure(call(clients.guest))).response).toEqual({ status: 401, message: "The request requires valid record authorization token.", data: {} });
  for (const name of ["editor", "ventas", "customer"] as const) {
    expect((await sdkFailure(call(clients[name]))).response, name).toEqual({ status: 403, message: "The authorized record is not allowed to perform this action.", data: {} });
  }
}
