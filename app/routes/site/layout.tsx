import { Outlet } from "react-router";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AccountLink } from "~/features/accounts/components/account-link";
import { CartLink } from "~/features/orders/components/cart-link";

function Header() {
  return <SiteHeader accountLink={(className) => <AccountLink className={className} />} cartLink={(className) => <CartLink className={className} />} />;
}

export default function SiteLayout() {
  return (
    <>
      <Header />
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
      <Header />
      <RouteErrorBoundary />
      <SiteFooter />
    </>
  );
}
