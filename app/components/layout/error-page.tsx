import { useLocation } from "react-router";
import { AppLink } from "~/components/ui/app-link";
import type { AppErrorData } from "~/lib/errors";

interface ErrorPageProps {
  error: AppErrorData & { stack?: string };
}

/** The one error page: the literal status title and message, framed in Spanish with a way out. */
export function ErrorPage({ error }: ErrorPageProps) {
  const notFound = error.statusCode === 404;
  // 503: the site is briefly without its database (docs/decisions/0052); the answer says when to retry.
  const unavailable = error.statusCode === 503;
  const { pathname, search } = useLocation();
  return (
    <section className="container-page py-16 sm:py-24" aria-labelledby="error-title" data-status={error.statusCode}>
      {/* No route meta runs for an error, so the page names itself (React hoists <title> into <head>). */}
      <title>{notFound ? "Página no encontrada | Forja" : unavailable ? "Sitio no disponible por un momento | Forja" : `Error ${error.statusCode} | Forja`}</title>
      <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Error {error.statusCode}</p>
      <h1 id="error-title" className="mt-2 text-3xl font-bold text-acero-900 sm:text-4xl">
        {notFound ? "No encontramos esta página" : unavailable ? "El sitio no está disponible por un momento" : "Algo salió mal de nuestro lado"}
      </h1>
      <p className="mt-4 max-w-2xl text-lg text-acero-700">
        {notFound
          ? "La dirección puede estar mal escrita o la página cambió de lugar. Estas opciones le pueden servir:"
          : unavailable
            ? "Estamos restableciendo el servicio. Vuelva a intentarlo en unos segundos; si estaba enviando un formulario, regrese y envíelo de nuevo."
            : "No pudimos completar su solicitud. Intente de nuevo en un momento; si el problema sigue, escríbanos."}
      </p>
      <div className="mt-6 rounded-md border border-acero-200 bg-acero-50 p-4 font-mono text-sm text-acero-800">
        <p data-testid="error-title" className="font-semibold">
          {error.statusMessage}
        </p>
        <p data-testid="error-message">{error.message}</p>
      </div>
      {error.stack ? (
        <pre className="mt-4 max-h-80 overflow-auto rounded-md bg-acero-900 p-4 text-xs text-acero-100">{error.stack}</pre>
      ) : null}
      <ul className="mt-8 flex flex-wrap gap-3">
        {unavailable ? (
          <li>
            <AppLink to={`${pathname}${search}`} reloadDocument className="btn-primary">
              Volver a intentar
            </AppLink>
          </li>
        ) : null}
        <li>
          <AppLink to="/" className="btn-dark">
            Ir al inicio
          </AppLink>
        </li>
        <li>
          <AppLink to="/cotiza" className="btn-primary">
            Solicitar una cotización
          </AppLink>
        </li>
        <li>
          <AppLink to="/contact" className="btn-secondary">
            Contactarnos
          </AppLink>
        </li>
      </ul>
    </section>
  );
}
