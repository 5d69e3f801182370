import { expect, type APIRequestContext } from "@playwright/test";
import { PASSWORD, STAFF, baseUrl, signInApi, uniqueEmail } from "./accounts";
import { linkInMail, waitForMail } from "./mail";

// Staff accounts of every role for the browser tests (docs/decisions/0040), made the way an admin
// makes them: an invitation from /admin/personal, its email read from the test SMTP server, the
// password chosen at /admin/bienvenida. Never through the database behind the server's back.

export type StaffRole = "admin" | "editor" | "ventas";

export const INVITATION_SUBJECT = /Invitación al panel de Forja/;

export const STAFF_AREA_REFUSED = "Su cuenta del personal no tiene acceso a esta sección. Si la necesita, pídala a quien administra el panel.";

/** The admin from admin-create (global set-up) signed in on `client`. */
export async function signInAdmin(client: APIRequestContext): Promise<void> {
  const signedIn = await signInApi(client, STAFF.email, STAFF.password);
  expect(signedIn.response.status()).toBe(200);
}

/** Sends /admin/personal's invitation form as the admin signed in on `adminClient`. */
export async function inviteStaff(adminClient: APIRequestContext, input: { name: string; email: string; role: StaffRole }) {
  return adminClient.post("/admin/personal", { headers: { origin: baseUrl() }, form: { intent: "invitar", ...input } });
}

/** The invitation link the test SMTP server received for `email`. */
export async function invitationLink(email: string): Promise<URL> {
  const [mail] = await waitForMail(email, { subject: INVITATION_SUBJECT });
  return linkInMail(mail, "/admin/bienvenida");
}

/** Chooses the password through the invitation's link on `client` (which is then signed in). */
export async function acceptInvitation(client: APIRequestContext, email: string, password = PASSWORD): Promise<void> {
  const link = await invitationLink(email);
  const response = await client.post("/admin/bienvenida", {
    headers: { origin: baseUrl() },
    form: { token: link.searchParams.get("token") ?? "", password, passwordConfirm: password },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  expect(response.headers()["location"]).toBe("/admin");
}

/** A new staff member of `role`, invited by the admin and signed in on `client`. */
export async function createStaffMember(adminClient: APIRequestContext, client: APIRequestContext, role: StaffRole, label: string = role) {
  const member = { name: `Persona ${label} Prueba`, email: uniqueEmail(`personal-${label}`), role, password: PASSWORD };
  const invited = await inviteStaff(adminClient, member);
  expect(invited.status(), await invited.text()).toBe(200);
  await acceptInvitation(client, member.email, member.password);
  return member;
}
