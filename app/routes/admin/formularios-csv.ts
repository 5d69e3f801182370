import type { Route } from "./+types/formularios-csv";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { solicitudesCsvFileName, streamSolicitudesCsv } from "~/features/solicitudes/export-csv.server";
import { parseSolicitudFilters } from "~/features/solicitudes/filters";
import { requestMeta } from "~/lib/request-meta";

// The current view of /admin/formularios (same URL filters, every page) as a streamed CSV file.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "solicitudes");
  const filters = parseSolicitudFilters(new URL(request.url).searchParams);
  return new Response(streamSolicitudesCsv(filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${solicitudesCsvFileName()}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
