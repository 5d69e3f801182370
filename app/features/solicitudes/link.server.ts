import { linkRowsByEmail } from "~/db/link-by-email.server";
import { solicitudes } from "~/db/schema/solicitudes";

/** An anonymous request joins the account that later confirms the same email. */
export function linkSolicitudesToUser(userId: string, email: string): Promise<number> {
  return linkRowsByEmail(solicitudes, { owner: solicitudes.userId, email: solicitudes.email }, userId, email);
}
