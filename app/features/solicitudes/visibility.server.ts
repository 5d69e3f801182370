import { eq, type SQL } from "drizzle-orm";
import { solicitudes } from "~/db/schema/solicitudes";

// Who sees which solicitud, written once. Staff see them all (/admin/formularios); a customer sees
// the ones that are theirs: sent while signed in, or joined to their account when they confirmed
// the email they were sent from (link.server.ts). No customer page lists them yet; the record
// API's `solicitudes` collection reads them through this condition, and so will any such page.

export function solicitudVisibleToCustomer(userId: string): SQL {
  return eq(solicitudes.userId, userId);
}
