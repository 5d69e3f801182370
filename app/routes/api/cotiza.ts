import type { Route } from "./+types/cotiza";
import { requestMeta } from "~/lib/request-meta";
import { submitSolicitud } from "../cotiza/submit-solicitud.server";

// POST /api/cotiza: the same solicitud as the /cotiza form, answered in JSON so the browser can
// show upload progress (XMLHttpRequest) and keep the page while showing errors.
export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitSolicitud(requestMeta(request, context), "cotizacion");
  if (result.ok) return Response.json({ ok: true, number: result.number });
  return Response.json({ ok: false, result: result.result, formToken: result.formToken }, { status: result.status, headers: result.headers });
}
