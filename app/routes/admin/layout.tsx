import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/layout/admin-shell";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";

// Staff accounts come with the accounts issue; until then no request is signed in as staff,
// so the whole admin area sends visitors to the staff login.
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  throw redirect(`/admin/login?redirectTo=${encodeURIComponent(url.pathname)}`);
}

export default function AdminLayout() {
  return (
    <AdminShell>
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
