import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "~/lib/app-shell/react-dom-client";
import { HydratedRouter } from "react-router/dom";
import { startBuildWatch } from "~/lib/app-shell/build-watch";
import { navigationGuard } from "~/lib/app-shell/navigation-guard";
import { ensureHistoryKey } from "~/lib/app-shell/scroll-memory";

try {
  startBuildWatch();
  // The page's inline script gives a new history entry its key a task after the parse; the router reads it.
  ensureHistoryKey();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter instrumentations={[navigationGuard]} />
      </StrictMode>,
    );
  });
} catch (error) {
  console.error("Error al iniciar la aplicación en el navegador:", error);
}
