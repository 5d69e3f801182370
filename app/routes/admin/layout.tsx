import { useEffect } from "react";
import { Outlet, data, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/layout/admin-shell";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { hasAdminMarker, setAdminMarker } from "~/lib/admin-marker";
import { adminSignInCookie, consumedAdminSignIn, requireStaff } from "~/features/accounts/guards.server";
import { requestMeta } from "~/lib/request-meta";

// Every /admin page except the login: the server checks the staff role on each request.
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(requestMeta(request, context));
  const justSignedIn = consumedAdminSignIn(request);
  return data(
    { staff: { name: staff.name, email: staff.email }, justSignedIn },
    justSignedIn ? { headers: { "Set-Cookie": adminSignInCookie(false) } } : undefined,
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const { justSignedIn } = loaderData;

  // The original app's browser guard, checked on mount and after every page load.
  useEffect(() => {
    if (justSignedIn) setAdminMarker();
    if (!hasAdminMarker()) {
      console.log("Usuario no autenticado");
      navigate(`/admin/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    }
  }, [location.key, location.pathname, location.search, justSignedIn, navigate]);

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
