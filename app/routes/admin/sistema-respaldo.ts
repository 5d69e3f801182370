import type { Route } from "./+types/sistema-respaldo";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { backupExists } from "~/services/backups/backups.server";
import { backupDownload } from "~/routes/api/backups.server";

// GET /admin/sistema/respaldos/{key}: downloads a backup from /admin/sistema (role admin,
// docs/decisions/0058), the same download /api/backups/{key} answers.

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "sistema");
  if (!backupExists(params.key)) throw new Response("No encontramos ese respaldo.", { status: 404 });
  return backupDownload(params.key);
}
