import type { Route } from "./+types/sistema-respaldo";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { backupDownload } from "~/routes/api/backups.server";

// GET /admin/sistema/respaldos/{key}: downloads a backup from /admin/sistema (role admin,
// docs/decisions/0058), the same download /api/backups/{key} answers.

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "sistema");
  const download = await backupDownload(params.key);
  if (!download) throw new Response("No encontramos ese respaldo.", { status: 404 });
  return download;
}
