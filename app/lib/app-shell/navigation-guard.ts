import type { ClientInstrumentation } from "react-router";
import { isBuildStale } from "./build-watch";
import { preloadRouteModules, reportChunkError } from "./chunk-error";
import { guardedFullLoad } from "./reload-guard";

const never = () => new Promise<never>(() => {});

/**
 * Runs before every client navigation: a stale build turns a GET navigation into a full page
 * load, and a route chunk that cannot be imported triggers the guarded full load of the target
 * (or the error page when the guard says we just tried).
 */
export const navigationGuard: ClientInstrumentation = {
  router(router) {
    router.instrument({
      async navigate(callNavigate, info) {
        if (typeof info.to !== "string") return void (await callNavigate());
        // `currentUrl` is a path ("/faqs?x=1"), not an absolute URL: resolve it against the page origin first.
        const target = new URL(info.to, new URL(info.currentUrl, window.location.href));
        const isGet = !info.formMethod || info.formMethod.toUpperCase() === "GET";
        if (isGet && isBuildStale() && guardedFullLoad(target.href)) return never();
        try {
          await preloadRouteModules(target.pathname);
        } catch (error) {
          console.error("No se pudo cargar el código de la página; se recargará.", error);
          if (isGet && guardedFullLoad(target.href)) return never();
          reportChunkError(error instanceof Error ? error : new Error(String(error)));
          return never();
        }
        await callNavigate();
      },
    });
  },
};
