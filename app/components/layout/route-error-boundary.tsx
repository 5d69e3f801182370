import { isRouteErrorResponse, useRouteError } from "react-router";
import { describeError } from "~/lib/errors";
import { ErrorPage } from "./error-page";

/** The one error boundary body, used by the root and by every layout that frames it. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main id="contenido" className="page-view flex-1">
      <ErrorPage error={describeError(error, import.meta.env.DEV)} />
    </main>
  );
}
