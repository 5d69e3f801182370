import type { Plugin } from "vite";

// Each build gets one id, shared by the client and server bundles (they build in one process),
// and written to build/client/version.json for the running app to poll.
export function getBuildId(): string {
  process.env.FORJA_BUILD_ID ??= `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return process.env.FORJA_BUILD_ID;
}

export function buildVersionPlugin(): Plugin {
  return {
    name: "forja-build-version",
    apply: "build",
    generateBundle() {
      if (this.environment?.name !== "client") return;
      this.emitFile({
        type: "asset",
        fileName: "version.json",
        source: JSON.stringify({ id: getBuildId(), builtAt: new Date().toISOString() }),
      });
    },
  };
}
