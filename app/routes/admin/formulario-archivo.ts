import type { Route } from "./+types/formulario-archivo";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { getSolicitudFile } from "~/features/solicitudes/files.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";
import { storedFileHeaders } from "~/services/files/serve-headers.server";

// A customer's upload, for staff only: always a download (never rendered or run in the browser),
// never cached, and only through the solicitud it belongs to.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "solicitudes");
  const file = await getSolicitudFile({ solicitudId: params.id, fileId: params.fileId });
  if (!file) notFound(request);
  // Whatever the bytes (an HTML polyglot behind a valid header included): a sandboxed download of its detected type.
  return new Response(file.body, { headers: storedFileHeaders({ type: file.mimeType, name: file.originalName, size: file.size }) });
}
