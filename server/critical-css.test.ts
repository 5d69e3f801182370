import { describe, expect, it } from "vitest";
import { sharedChunks } from "./critical-css";

// The page's module start (docs/decisions/0068) evaluates the chunks every page shares one task
// each, in a fixed order, before React Router's module script runs the routes' own modules and the
// client entry.
describe("sharedChunks", () => {
  it("picks React, React DOM, React Router and the shell in that order, whatever the preload order", () => {
    const preloads = [
      "/assets/entry.client-CbTj72ks.js",
      "/assets/rolldown-runtime-Cyi2iUu2.js",
      "/assets/shell-TyXY_mBb.js",
      "/assets/router-gMiaOvsp.js",
      "/assets/react-dom-BFK3lxzo.js",
      "/assets/react-TqwYmNVF.js",
      "/assets/root-D_1jscIk.js",
      "/assets/home--rfH4QMQ.js",
    ];
    expect(sharedChunks(preloads)).toEqual(["/assets/react-TqwYmNVF.js", "/assets/react-dom-BFK3lxzo.js", "/assets/router-gMiaOvsp.js", "/assets/shell-TyXY_mBb.js"]);
  });

  it("reads a chunk's name without its hash, even a hash that starts with a dash, and skips what a page lacks", () => {
    // "react-dom-…" is not "react"; a route called "shell-like" with a dashed hash is not the shell.
    expect(sharedChunks(["/assets/shell-like--rfH4QMQ.js", "/assets/react-dom-BFK3lxzo.js"])).toEqual(["/assets/react-dom-BFK3lxzo.js"]);
    expect(sharedChunks([])).toEqual([]);
  });
});
