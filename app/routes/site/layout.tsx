import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { AccountLink } from "~/features/accounts/components/account-link";
import { CartLink } from "~/features/orders/components/cart-link";
import { StaffPageBar } from "~/features/site/components/staff-page-bar";
import { getSiteLayoutFacts } from "~/features/site/site-facts.server";

// The business facts of the header and footer come from the published `ajustes` record
// (docs/decisions/0047); the pages below read them with useSiteFacts (./site-facts).
export async function loader() {
  return getSiteLayoutFacts();
}

function Chrome({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("routes/site/layout");
  // Without the layout's data (its own loader failed) there is nothing to show around the error.
  if (!data) return <>{children}</>;
  return (
    <>
      <SiteHeader
        facts={data.facts}
        logo={data.logo}
        accountLink={(className) => <AccountLink className={className} />}
        cartLink={(className) => <CartLink className={className} />}
      />
      {children}
      <SiteFooter facts={data.facts} />
    </>
  );
}

export default function SiteLayout(_: Route.ComponentProps) {
  return (
    <Chrome>
      <main id="contenido" className="page-view flex-1">
        <Outlet />
      </main>
      <StaffPageBar />
    </Chrome>
  );
}

export function ErrorBoundary() {
  return (
    <Chrome>
      <RouteErrorBoundary />
    </Chrome>
  );
}
