import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { ErrorPage } from "~/components/layout/error-page";
import { NavigationProgress } from "~/components/layout/navigation-progress";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { useChunkError } from "~/lib/app-shell/chunk-error";
import { ScrollMemory } from "~/lib/app-shell/scroll-memory";
import { useHydrated } from "~/lib/app-shell/use-hydrated";
import { describeError } from "~/lib/errors";
import { answerDatabaseUnavailable } from "~/database-unavailable.server";
import { getPublicSettings } from "~/features/site/public-settings.server";
import { draftPreviewBanner, draftPreviewMiddleware } from "~/features/site/preview.server";
import { headerSignedIn, impersonationBanner, impersonationMiddleware } from "~/features/accounts/index.server";
import { ImpersonationBanner } from "~/components/layout/impersonation-banner";
import { cachedSessionVariantContext } from "~/lib/page-cache";
import { requestMeta } from "~/lib/request-meta";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  // A PNG, not the SVG it is drawn from: Chromium renders an SVG icon as a document of its own on
  // the page's main thread (a 15–30 ms task after the first paint, docs/decisions/0068).
  { rel: "icon", href: "/favicon.png", type: "image/png", sizes: "48x48" },
];

// Around every page and resource route: a request that failed because the database is away is
// answered 503 with Retry-After (docs/decisions/0052). A staff preview of a draft runs inside its
// scope and is answered private and noindex (docs/decisions/0049).
// An admin seeing the site as a customer writes nothing unless allowed, and is never cached (0063).
export const middleware: Route.MiddlewareFunction[] = [answerDatabaseUnavailable, draftPreviewMiddleware, impersonationMiddleware];

// Nothing personal here: this loader's data is part of HTML that the server caches per build
// (signedIn only picks the header's label; cached pages keep one variant for each value). `preview`
// is set only on a staff preview, which is never cached; `impersonation` only for a browser seeing
// the site as a customer, which the page cache never answers nor keeps.
export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = requestMeta(request, context);
  const cachedVariant = context.get(cachedSessionVariantContext);
  return {
    ...getPublicSettings(),
    signedIn: await headerSignedIn(meta, cachedVariant),
    preview: draftPreviewBanner(),
    impersonation: cachedVariant ? null : await impersonationBanner(meta),
  };
}

export function Layout({ children }: { children: ReactNode }) {
  const settings = useRouteLoaderData<typeof loader>("root");
  const { pathname } = useLocation();
  const canonical = settings ? `${settings.publicUrl}${pathname}` : undefined;
  // Absent in the server HTML and until hydration has committed: a hook for CSS and browser tests.
  const hydrated = useHydrated();
  return (
    <html lang="es-MX" data-hydrated={hydrated ? "true" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#171e26" />
        <Meta />
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {settings?.impersonation ? <ImpersonationBanner {...settings.impersonation} /> : null}
        {children}
        <ScrollMemory />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const chunkError = useChunkError();
  return (
    <>
      <NavigationProgress />
      {chunkError ? <ErrorPage error={describeError(chunkError, false)} /> : <Outlet />}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
