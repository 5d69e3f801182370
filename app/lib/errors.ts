import { data } from "react-router";
import { pageUrl } from "./page-url";

// The one error helper. Thrown responses reach the shared error boundary; the literal English
// titles are kept from the original app (tests and monitoring look for them).

export const ERROR_TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Page Not Found",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface AppErrorData {
  statusCode: number;
  statusMessage: string;
  message: string;
}

/** 404 for the page a request is for (the message names the page, never its ".data" request). */
export function notFound(request: Request): never {
  const page = pageUrl(request).pathname;
  throw data<AppErrorData>(
    { statusCode: 404, statusMessage: ERROR_TITLES[404], message: `Page not found: ${page}` },
    { status: 404 },
  );
}

export function forbidden(message = "No tiene permiso para ver esta página."): never {
  throw data<AppErrorData>({ statusCode: 403, statusMessage: ERROR_TITLES[403], message }, { status: 403 });
}

/** What the page and the API say while the site cannot reach its database (docs/decisions/0052). */
export const UNAVAILABLE_MESSAGE = "El sitio no está disponible por un momento. Vuelva a intentarlo en unos segundos.";

/** 503: the site is briefly unable to answer; the client is asked to come back in `retryAfterSeconds`. */
export function unavailable(retryAfterSeconds: number): never {
  throw data<AppErrorData>(
    { statusCode: 503, statusMessage: ERROR_TITLES[503], message: UNAVAILABLE_MESSAGE },
    { status: 503, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** Normalises anything thrown into what the error page shows. */
export function describeError(error: unknown, isDev: boolean): AppErrorData & { stack?: string } {
  if (error && typeof error === "object" && "status" in error && "data" in error) {
    const status = Number((error as { status: number }).status) || 500;
    const payload = (error as { data: unknown }).data;
    if (payload && typeof payload === "object" && "message" in payload) {
      const p = payload as Partial<AppErrorData>;
      return {
        statusCode: p.statusCode ?? status,
        statusMessage: p.statusMessage ?? ERROR_TITLES[status] ?? ERROR_TITLES[500],
        message: String(p.message),
      };
    }
    return {
      statusCode: status,
      statusMessage: ERROR_TITLES[status] ?? ERROR_TITLES[500],
      message: typeof payload === "string" && payload ? payload : (ERROR_TITLES[status] ?? ERROR_TITLES[500]),
    };
  }
  const message = isDev && error instanceof Error ? error.message : ERROR_TITLES[500];
  return {
    statusCode: 500,
    statusMessage: ERROR_TITLES[500],
    message,
    stack: isDev && error instanceof Error ? error.stack : undefined,
  };
}
