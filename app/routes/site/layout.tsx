import { Outlet } from "react-router";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";

export default function SiteLayout() {
  return (
    <>
      <SiteHeader />
      <main id="contenido" className="page-view flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <>
      <SiteHeader />
      <RouteErrorBoundary />
      <SiteFooter />
    </>
  );
}
