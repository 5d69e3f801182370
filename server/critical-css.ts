import path from "node:path";
import Beasties from "beasties";
import { logger } from "~/lib/logger.server";

// First paint in one round trip (docs/decisions/0030), applied where a page's HTML is produced
// once (a build page once per build, a catalogue page once per change), never per request:
//
// - The HTML carries, inline, the rules of the site's stylesheet that match its own elements. The
//   whole stylesheet still loads, as `media="print"` (fetched without blocking rendering) switched
//   to `all` by one small inline script that is the same on every page, so the page's CSP allows
//   it by hash like its other inline scripts (server/page-cache.ts). Without JavaScript a
//   <noscript> link loads the stylesheet as before.
// - The page's modules are not needed to paint it. React Router preloads every module of the
//   matched routes from the head, and those downloads share the connection with the page and its
//   largest image. Here the preloads and React Router's module script wait in the HTML, inert (the
//   preloads in a <template>, the script as `type="text/forja-module"`), and one small inline script,
//   the same on every page, starts them after the first paint and once the page's priority image
//   has loaded: it adds the preloads (all at once, so hydration waits for no chain) and puts the
//   module script back, unchanged, in its place. Its text is the one in the HTML, so the page's
//   CSP hashes allow it. Without JavaScript nothing changes: neither would run.
//
// Pages rendered per request keep the plain stylesheet and preloads.

let beasties: Beasties | undefined;

function instance(): Beasties {
  beasties ??= new Beasties({
    path: path.resolve("build/client"),
    publicPath: "/",
    preload: "media-script",
    // React's own inline styles (if any) are left as rendered.
    reduceInlineStyles: false,
    // No web fonts: the stack is the system's.
    fonts: false,
    compress: true,
    logLevel: "silent",
  });
  return beasties;
}

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script type="module" async(?:="")?>/g;
const PRELOADS_ID = "forja-modulos";
const DEFERRED_TYPE = "text/forja-module";
/** Starts the page's modules after the first paint and the priority image (see above). */
const START_MODULES = `(function(){function go(){var t=document.getElementById("${PRELOADS_ID}");if(t)document.head.appendChild(t.content);var s=document.querySelector('script[type="${DEFERRED_TYPE}"]');if(!s)return;var m=document.createElement("script");m.type="module";m.async=true;m.text=s.text;s.parentNode.replaceChild(m,s)}function later(){requestAnimationFrame(function(){setTimeout(go,0)})}var i=document.querySelector('img[fetchpriority="high"]');if(i&&!i.complete){i.addEventListener("load",later);i.addEventListener("error",later)}else later()})()`;

/**
 * React Router's module script inert until START_MODULES runs, and its preloads kept in a
 * <template> (whose content the browser does not fetch) where they were.
 */
function deferModules(html: string): string {
  const bodyEnd = html.lastIndexOf("</body>");
  if (html.match(MODULE_SCRIPT)?.length !== 1 || bodyEnd < 0) return html;
  const preloads: string[] = [];
  let first = -1;
  const withoutPreloads = html.slice(0, bodyEnd).replace(MODULE_PRELOAD, (link: string, offset: number) => {
    if (first < 0) first = offset;
    preloads.push(link);
    return "";
  });
  const template = preloads.length ? `<template id="${PRELOADS_ID}">${preloads.join("")}</template>` : "";
  const at = first < 0 ? 0 : first;
  return (
    withoutPreloads.slice(0, at) +
    template +
    withoutPreloads.slice(at).replace(MODULE_SCRIPT, `<script type="${DEFERRED_TYPE}">`) +
    `<script>${START_MODULES}</script>` +
    html.slice(bodyEnd)
  );
}

/** The page ready to paint from its own bytes; the page as given when it is no document or that fails. */
export async function prepareFirstPaint(html: string): Promise<string> {
  // Redirects and empty answers have no document to change.
  if (!/^<!DOCTYPE html>/i.test(html) || !html.includes('rel="stylesheet"')) return html;
  try {
    const processed = await instance().process(html);
    // Beasties marks the element it scoped to; nothing reads the mark.
    return deferModules(processed.replace(/^(<!DOCTYPE html>\s*<html[^>]*?) data-beasties-container(?:="")?/i, "$1"));
  } catch (error) {
    logger.warn({ err: error }, "could not inline the critical CSS; the page keeps its stylesheet");
    return html;
  }
}
