import { getHealth } from "~/services/health/health.server";

export async function loader() {
  const report = await getHealth();
  return Response.json(report.body, { status: report.status, headers: { "Cache-Control": "no-store" } });
}
