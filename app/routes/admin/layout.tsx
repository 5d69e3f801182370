import { useEffect } from "react";
import { Outlet, data, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/layout/admin-shell";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { hasAdminMarker, setAdminMarker, setContentEditorMarker } from "~/lib/admin-marker";
import { adminSignInCookie, consumedAdminSignIn, requireStaff } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";
import { STAFF_ROLE_LABELS, isStaffRole, staffAreasOf } from "~/features/accounts/staff-roles";

// Every /admin page except the login: the server checks the staff role on each request (each page
// checks its own area too; the sidebar lists only the areas of the role).
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  const justSignedIn = consumedAdminSignIn(request);
  const roleLabel = isStaffRole(staff.role) ? STAFF_ROLE_LABELS[staff.role] : "";
  return data(
    { staff: { name: staff.name, email: staff.email, roleLabel, areas: staffAreasOf(staff.role) }, justSignedIn },
    justSignedIn ? { headers: { "Set-Cookie": adminSignInCookie(false) } } : undefined,
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const { justSignedIn } = loaderData;
  const editsContent = loaderData.staff.areas.includes("contenido");

  // The original app's browser guard, checked on mount and after every page load.
  useEffect(() => {
    if (justSignedIn) setAdminMarker();
    if (hasAdminMarker()) setContentEditorMarker(editsContent);
    if (!hasAdminMarker()) {
      console.log("Usuario no autenticado");
      navigate(`/admin/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    }
  }, [location.key, location.pathname, location.search, justSignedIn, editsContent, navigate]);

  return (
    <AdminShell staff={loaderData.staff}>
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  return (
    <AdminShell>
      <RouteErrorBoundary />
    </AdminShell>
  );
}
