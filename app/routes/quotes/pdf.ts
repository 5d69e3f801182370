import type { Route } from "./+types/pdf";
import { staffMayUse } from "~/features/accounts/index.server";
import { requireUser } from "~/features/accounts/guards.server";
import { getQuotePdf } from "~/features/quotes/quote-pdf.server";
import { notFound } from "~/lib/errors";
import { requestMeta } from "~/lib/request-meta";

// The quote as a PDF download. Same rule as the page: a guest signs in first; the owner gets the
// revision they were sent; staff whose role has quotes (docs/decisions/0040) get any quote; anyone else a 404 that says nothing about it.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  const pdf = await getQuotePdf(params.id, { userId: user.id, staff: staffMayUse(user.role, "cotizaciones") });
  if (!pdf) notFound(request);
  return new Response(new Uint8Array(pdf.body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.body.byteLength),
      "Content-Disposition": `attachment; filename="${pdf.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
