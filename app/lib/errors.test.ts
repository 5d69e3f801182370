import { createStaticHandler, data, isRouteErrorResponse, type StaticHandlerContext } from "react-router";
import { describe, expect, it } from "vitest";
import { describeError, ERROR_TITLES, forbidden, notFound } from "./errors";

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

/** What the router hands the error boundary when a loader throws: a real static handler run. */
async function routeErrorFrom(loader: () => unknown): Promise<unknown> {
  const handler = createStaticHandler([{ id: "page", path: "/*", loader }]);
  const context = (await handler.query(new Request("http://127.0.0.1/x"))) as StaticHandlerContext;
  return context.errors?.page;
}

describe("notFound", () => {
  it("throws a 404 response with the seed's literal strings", () => {
    const thrown = thrownBy(() => notFound(new Request("http://localhost/x"))) as { data: unknown; init: ResponseInit | null };
    expect(thrown.init?.status).toBe(404);
    expect(thrown.data).toEqual({ statusCode: 404, statusMessage: "Page Not Found", message: "Page not found: /x" });
  });

  it("reaches the error boundary as a 404 route error", async () => {
    const error = await routeErrorFrom(() => notFound(new Request("http://localhost/x")));
    expect(isRouteErrorResponse(error)).toBe(true);
    expect(describeError(error, false)).toEqual({ statusCode: 404, statusMessage: "Page Not Found", message: "Page not found: /x" });
  });
});

describe("forbidden", () => {
  it("throws a 403 with a Spanish default message", () => {
    const thrown = thrownBy(() => forbidden()) as { data: { statusCode: number; statusMessage: string; message: string }; init: ResponseInit | null };
    expect(thrown.init?.status).toBe(403);
    expect(thrown.data.statusMessage).toBe("Forbidden");
    expect(thrown.data.message).toBe("No tiene permiso para ver esta página.");
  });
});

describe("describeError", () => {
  it("hides the message and stack of an unexpected error outside development", () => {
    const described = describeError(new Error("secreto: contraseña de la base"), false);
    expect(described).toEqual({ statusCode: 500, statusMessage: "Internal Server Error", message: "Internal Server Error", stack: undefined });
    expect(JSON.stringify(described)).not.toContain("secreto");
  });

  it("shows the message and stack in development", () => {
    const error = new Error("se rompió");
    const described = describeError(error, true);
    expect(described).toMatchObject({ statusCode: 500, statusMessage: "Internal Server Error", message: "se rompió" });
    expect(described.stack).toBe(error.stack);
    expect(described.stack).toContain("se rompió");
  });

  it("treats thrown non-errors as 500 without details", () => {
    expect(describeError("texto", true)).toMatchObject({ statusCode: 500, message: "Internal Server Error" });
    expect(describeError(null, false)).toMatchObject({ statusCode: 500, message: "Internal Server Error" });
    expect(describeError(undefined, true).stack).toBeUndefined();
  });

  it("describes a thrown data(…, { status: 403 }) as the router delivers it", async () => {
    const withMessage = await routeErrorFrom(() => {
      throw data({ message: "Solo el dueño puede ver esta cotización." }, { status: 403 });
    });
    expect(describeError(withMessage, false)).toEqual({ statusCode: 403, statusMessage: "Forbidden", message: "Solo el dueño puede ver esta cotización." });

    const withText = await routeErrorFrom(() => {
      throw data("Acceso denegado", { status: 403 });
    });
    expect(describeError(withText, false)).toEqual({ statusCode: 403, statusMessage: "Forbidden", message: "Acceso denegado" });

    const empty = await routeErrorFrom(() => {
      throw data(null, { status: 403 });
    });
    expect(describeError(empty, false)).toEqual({ statusCode: 403, statusMessage: "Forbidden", message: "Forbidden" });
  });

  it("describes forbidden() and thrown Responses through the router", async () => {
    expect(describeError(await routeErrorFrom(() => forbidden("No es suya.")), false)).toEqual({ statusCode: 403, statusMessage: "Forbidden", message: "No es suya." });
    const response = await routeErrorFrom(() => {
      throw new Response(null, { status: 401 });
    });
    expect(describeError(response, false)).toMatchObject({ statusCode: 401, statusMessage: "Unauthorized" });
  });

  it("falls back to the 500 title for a status it has no title for", async () => {
    const error = await routeErrorFrom(() => {
      throw data(null, { status: 418 });
    });
    expect(describeError(error, false)).toEqual({ statusCode: 418, statusMessage: ERROR_TITLES[500], message: ERROR_TITLES[500] });
  });

  it("never exposes a stack for route errors", async () => {
    const error = await routeErrorFrom(() => notFound(new Request("http://localhost/y")));
    expect(describeError(error, true)).not.toHaveProperty("stack");
  });
});
