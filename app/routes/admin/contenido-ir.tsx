import { redirect } from "react-router";
import type { Route } from "./+types/contenido-ir";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { PAGE_NOTICE_PARAMETERS, pageEditorTarget } from "~/features/site/editor/page-record.server";
import { requestMeta } from "~/lib/request-meta";

// /admin/contenido/ir?ruta=/faqs — «Editar esta página» on the public site (docs/decisions/0049):
// the record (or the collection's list) that shows that address, in the editor. A page without a
// record, or one the role may not edit, goes to the content list with a notice saying so.

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "contenido");
  const path = new URL(request.url).searchParams.get(PAGE_NOTICE_PARAMETERS.path) ?? "";
  const target = await pageEditorTarget(path, staff.role);
  if (target.ok) throw redirect(target.to);
  throw redirect(`/admin/contenido?${new URLSearchParams({ [PAGE_NOTICE_PARAMETERS.notice]: target.notice, [PAGE_NOTICE_PARAMETERS.path]: path.slice(0, 300) })}`);
}

// Never drawn: the loader always redirects (or the error boundary explains a refusal).
export default function AdminContentGoToPage() {
  return null;
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
