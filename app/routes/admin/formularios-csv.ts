import type { Route } from "./+types/formularios-csv";
import { requireStaff } from "~/features/accounts/guards.server";
import { parseSubmissionFilters, streamSubmissionsCsv, submissionsCsvFileName } from "~/features/submissions/admin.server";
import { requestMeta } from "~/lib/request-meta";

// The current view of /admin/formularios (same URL filters, every page) as a streamed CSV file.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(requestMeta(request, context));
  const filters = parseSubmissionFilters(new URL(request.url).searchParams);
  return new Response(streamSubmissionsCsv(filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${submissionsCsvFileName()}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
