import { describe, expect, it } from "vitest";
import { moduleSteps } from "./critical-css";

// The page's module start (docs/decisions/0068) evaluates, one task each and before React Router's
// module script: the chunks every page shares, in a fixed order, then the routes' large modules.
describe("moduleSteps", () => {
  const sizes: Record<string, number> = {
    "/assets/zod-kmG1VVNF.js": 92_988,
    "/assets/parse-B2dPYaj_.js": 31_980,
    "/assets/forms-DqmhOlaW.js": 12_083,
    "/assets/cotiza-Btzg2I_c.js": 27_667,
    "/assets/seo-WHxp8kxc.js": 1_200,
  };
  const sizeOf = (href: string) => sizes[href] ?? 500;

  it("puts React, React DOM, React Router and the shell first in that order, then the large imported modules, largest first", () => {
    const preloads = [
      "/assets/entry.client-CbTj72ks.js",
      "/assets/rolldown-runtime-Cyi2iUu2.js",
      "/assets/shell-TyXY_mBb.js",
      "/assets/router-gMiaOvsp.js",
      "/assets/react-dom-BFK3lxzo.js",
      "/assets/react-TqwYmNVF.js",
      "/assets/root-D_1jscIk.js",
      "/assets/cotiza-Btzg2I_c.js",
      "/assets/forms-DqmhOlaW.js",
      "/assets/seo-WHxp8kxc.js",
      "/assets/parse-B2dPYaj_.js",
      "/assets/zod-kmG1VVNF.js",
    ];
    const byScript = new Set(["/assets/root-D_1jscIk.js", "/assets/cotiza-Btzg2I_c.js", "/assets/entry.client-CbTj72ks.js"]);
    expect(moduleSteps(preloads, byScript, sizeOf)).toEqual([
      "/assets/react-TqwYmNVF.js",
      "/assets/react-dom-BFK3lxzo.js",
      "/assets/router-gMiaOvsp.js",
      "/assets/shell-TyXY_mBb.js",
      "/assets/zod-kmG1VVNF.js",
      "/assets/parse-B2dPYaj_.js",
      "/assets/forms-DqmhOlaW.js",
    ]);
  });

  it("reads a chunk's name without its hash, even a hash that starts with a dash, and skips what a page lacks", () => {
    // "react-dom-…" is not "react"; a module called "shell-like" with a dashed hash is not the shell.
    expect(moduleSteps(["/assets/shell-like--rfH4QMQ.js", "/assets/react-dom-BFK3lxzo.js"], new Set(), () => 100)).toEqual(["/assets/react-dom-BFK3lxzo.js"]);
    expect(moduleSteps([], new Set(), sizeOf)).toEqual([]);
  });
});
