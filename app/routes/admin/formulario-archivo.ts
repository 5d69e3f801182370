import type { Route } from "./+types/formulario-archivo";
import { requireStaff } from "~/features/accounts/guards.server";
import { attachmentDisposition, getSolicitudFile } from "~/features/solicitudes/files.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";

// A customer's upload, for staff only: always a download (never rendered or run in the browser),
// never cached, and only through the solicitud it belongs to.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(requestMeta(request, context));
  const file = await getSolicitudFile({ solicitudId: params.id, fileId: params.fileId });
  if (!file) notFound(request);
  return new Response(file.body, {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.size),
      "Content-Disposition": attachmentDisposition(file.originalName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      // Should a browser open it anyway: no scripts, no plugins, no same-origin access.
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
