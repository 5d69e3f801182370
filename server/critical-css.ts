import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Beasties from "beasties";
import { logger } from "~/lib/logger.server";
import { forUndecodedAttributes, normalizeSelector, splitSelectorList } from "./critical-selectors";

const CLIENT_BUILD = path.resolve("build/client");

// First paint in one round trip (docs/decisions/0030), applied where a page's HTML is produced
// once (a build page once per build, a catalogue page once per change), never per request:
//
// - The HTML carries, inline, the rules of the site's stylesheet that match its own elements
//   (chosen by structure, states included: server/critical-selectors.ts), so the page as served
//   looks exactly as it does with the whole stylesheet (tests/e2e/lighthouse.spec.ts compares the
//   two, pixel by pixel). The whole stylesheet still loads, as `media="print"` (fetched without
//   blocking rendering, and it is what printing uses), and is switched to `all` only when the page
//   may need a rule it does not carry (docs/decisions/0066): at the reader's first interaction
//   (pointer, touch, key, focus, wheel), which comes before any client navigation, menu or
//   message, or when the page itself adds an element or changes a class or attribute that a rule
//   it lacks could be for (`stylesheetWhenNeeded` below). Until then, applying it would restyle
//   the whole page to change nothing. One small inline script does this, the same on every page
//   of a build, and the page's CSP allows it by hash like its other inline scripts
//   (server/page-cache.ts). Without JavaScript a <noscript> link loads the stylesheet as before.
// - The page's modules are not needed to paint it. React Router preloads every module of the
//   matched routes from the head, and those downloads share the connection with the page and its
//   largest image. Here the preloads and React Router's module script wait in the HTML, inert (the
//   preloads in a <template>, the script as `type="text/forja-module"`), and one small inline script
//   starts them after the first paint and once the page's priority image has loaded: it adds every
//   preload (so hydration waits for no chain of imports), a few per task, evaluates the chunks every
//   page shares and the routes' large imported modules one task each, and puts the module script
//   back, unchanged, in its place (docs/decisions/0068). Its text is the one in the HTML, so the
//   page's CSP hashes allow it. Without JavaScript nothing changes: neither would run.
//
// Pages rendered per request keep the plain stylesheet and preloads.

/** Beasties choosing rules by the page's structure, not its states (server/critical-selectors.ts). */
export class PageBeasties extends Beasties {
  // Beasties asks this method for the form of each selector it matches against the page.
  normalizeCssSelector(selector: string): string {
    return forUndecodedAttributes(normalizeSelector(selector));
  }
}

let beasties: Beasties | undefined;

function instance(): Beasties {
  beasties ??= new PageBeasties({
    path: CLIENT_BUILD,
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

/** Beasties' own switch: the stylesheet applied as soon as it loads. */
const BEASTIES_SWITCH = /<script>document\.querySelectorAll\('link\[data-beasties-media\]'\)[^<]*<\/script>/;

/**
 * The stylesheet applied when the page may need a rule its inline CSS lacks (see above): at the
 * reader's first pointer, touch, key, focus or wheel, or when the page adds an element, or changes
 * a class or an attribute some rule selects on, in a way a missing rule could be for. An element
 * (with what it contains) needs nothing new when its tags and classes all appeared in the HTML
 * (every rule selecting on them was chosen for the page) and it matches none of the stylesheet's
 * attribute selectors that matched nothing in the HTML (`[aria-invalid=true]`, `[open]`…: given
 * here, found in the stylesheet once per build). So hydration, the module start below, React
 * revealing streamed content and a button that replaces its placeholder (the 3D viewer's) leave it
 * alone, while a message or a menu the page adds gets the whole stylesheet before it paints
 * (MutationObserver callbacks run before the next frame).
 */
function stylesheetWhenNeeded(attributeSelectors: readonly string[]): string {
  return [
    "(function(){",
    'var l=document.querySelectorAll("link[data-beasties-media]");if(!l.length)return;',
    // The rest in a task of its own after the parse (docs/decisions/0071): nothing changes the page before then.
    "setTimeout(function(){",
    'var e=["pointerdown","pointermove","touchstart","keydown","focusin","wheel"],seen=new Set(),o,d=false;',
    `var a=${JSON.stringify(attributeSelectors).replaceAll("<", "\\u003c")}.filter(function(s){try{return!document.querySelector(s)}catch(x){return false}});`,
    // The class attribute's text, not classList: no token list object made for every element (a third of the time).
    'function marks(n,f){f("<"+n.nodeName);var c=n.getAttribute("class");if(c)c.split(/\\s+/).forEach(function(x){if(x)f("."+x)})}',
    'document.querySelectorAll("*").forEach(function(n){marks(n,function(m){seen.add(m)})});',
    "function novel(n){var x=false;[n].concat([].slice.call(n.querySelectorAll(\"*\"))).forEach(function(c){marks(c,function(m){if(!seen.has(m))x=true});a.forEach(function(s){if(c.matches(s))x=true})});return x}",
    'function all(){if(d)return;d=true;o.disconnect();e.forEach(function(t){removeEventListener(t,all,true)});l.forEach(function(m){m.media=m.getAttribute("data-beasties-media");m.removeAttribute("data-beasties-media")})}',
    "e.forEach(function(t){addEventListener(t,all,{capture:true,passive:true})});",
    'o=new MutationObserver(function(r){for(var i=0;i<r.length;i++){if(r[i].type==="attributes"&&novel(r[i].target))return all();for(var j=0;j<r[i].addedNodes.length;j++){var n=r[i].addedNodes[j];if(n.nodeType===1&&!/^(SCRIPT|TEMPLATE|LINK|STYLE|META|NOSCRIPT)$/.test(n.nodeName)&&novel(n))return all()}}});',
    `o.observe(document.documentElement,{subtree:true,childList:true,attributes:true,attributeFilter:${JSON.stringify(["class", ...attributeNames(attributeSelectors)])}})`,
    "},0)",
    "})()",
  ].join("");
}

/** The attributes those selectors select on. */
function attributeNames(selectors: readonly string[]): string[] {
  return [...new Set(selectors.flatMap((selector) => [...selector.matchAll(/(?<!\\)\[\s*([\w-]+)/g)].map((match) => match[1]!.toLowerCase())))];
}

/**
 * The selectors of a stylesheet that select on an attribute, normalised as for the critical CSS
 * (server/critical-selectors.ts): what an added element could need beyond its tags and classes.
 */
export function attributeSelectors(css: string): string[] {
  const found = new Set<string>();
  // Every rule's prelude: the text before a "{" back to the previous "{", "}" or ";" (at-rule preludes start with "@").
  for (const [, prelude] of css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/(?:^|[{};])\s*([^{};@][^{};]*)\{/g)) {
    for (const selector of splitSelectorList(prelude!)) {
      if (!/(?<!\\)\[/.test(selector)) continue;
      const normalized = normalizeSelector(selector);
      if (/(?<!\\)\[/.test(normalized)) found.add(normalized);
    }
  }
  return [...found];
}

/** Per stylesheet file (its name changes with its content): its attribute selectors. */
const attributeSelectorsByFile = new Map<string, string[]>();

async function stylesheetAttributeSelectors(html: string): Promise<string[]> {
  const files = [...html.matchAll(/<link rel="stylesheet" href="\/([^"?#]+\.css)"[^>]*data-beasties-media/g)].map((match) => match[1]!);
  const lists = await Promise.all(
    files.map(async (file) => {
      let list = attributeSelectorsByFile.get(file);
      if (!list) {
        list = attributeSelectors(await readFile(path.join(CLIENT_BUILD, file), "utf8"));
        attributeSelectorsByFile.set(file, list);
      }
      return list;
    }),
  );
  return [...new Set(lists.flat())];
}

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script type="module" async(?:="")?>/g;
const PRELOADS_ID = "forja-modulos";
const DEFERRED_TYPE = "text/forja-module";
/**
 * The chunks every page shares, evaluated one task each and in this order before React Router's
 * module script runs (their file names without the hash: vite.config.ts). Together with the route
 * modules and the client entry they were one task of 20–40 ms here, which Lighthouse's four times
 * slower phone counts as blocking (docs/decisions/0068). The routes' own modules are small: they
 * stay with React Router's script, so the page does not wait for one more task per module.
 */
const SHARED_CHUNKS = ["react", "react-dom", "router", "shell"];

/**
 * Preloads added per task: each starts its fetch where it is added, and all of a page's 10–17 in one
 * task was a task of 15–20 ms in Lighthouse's traces here.
 */
const PRELOADS_PER_TASK = 4;

/** A chunk's name: its file name without the bundler's "-" and eight-character hash. */
function chunkName(href: string): string {
  return (href.split("/").pop() ?? "").replace(/\.js$/, "").slice(0, -9);
}

/**
 * Starts the page's modules after the first paint and the priority image (see above): adds the
 * preloads a few per task, evaluates the shared chunks and the routes' large modules one `import()`
 * per task (moduleSteps), each after the previous has run, and last puts React Router's module
 * script back (its route modules, then the client entry, which hydrates).
 */
function startModules(steps: readonly string[]): string {
  return (
    `(function(){var w=${JSON.stringify(steps).replaceAll("<", "\\u003c")};` +
    `function run(){var s=document.querySelector('script[type="${DEFERRED_TYPE}"]');if(!s)return;var m=document.createElement("script");m.type="module";m.async=true;m.text=s.text;s.parentNode.replaceChild(m,s)}` +
    "function next(){setTimeout(step,0)}" +
    "function step(){if(!w.length)return run();import(w.shift()).then(next,next)}" +
    `function go(){var t=document.getElementById("${PRELOADS_ID}"),n=t?[].slice.call(t.content.children):[];(function add(){n.splice(0,${PRELOADS_PER_TASK}).forEach(function(l){document.head.appendChild(l)});if(n.length)setTimeout(add,0);else next()})()}` +
    "function later(){requestAnimationFrame(function(){setTimeout(go,0)})}" +
    `var i=document.querySelector('img[fetchpriority="high"]');if(i&&!i.complete){i.addEventListener("load",later);i.addEventListener("error",later)}else later()})()`
  );
}

/**
 * A module the routes import that is at least this large (minified) gets a task of its own too, before
 * the route modules: /cotiza's forms, parser and zod evaluated with its route were one task of 30–40 ms.
 */
const OWN_TASK_BYTES = 8 * 1024;

/**
 * The modules evaluated one task each before React Router's script, in order: the shared chunks
 * (React, React DOM, React Router, the shell), then each other module of at least OWN_TASK_BYTES
 * that is neither a route module nor the client entry (those run in React Router's script, after
 * their imports have run), largest first: the libraries, which the app's modules import, are the
 * largest. `sizeOf` answers a module's size in bytes.
 */
export function moduleSteps(preloadHrefs: readonly string[], runByScript: ReadonlySet<string>, sizeOf: (href: string) => number): string[] {
  const shared = SHARED_CHUNKS.flatMap((name) => preloadHrefs.filter((href) => chunkName(href) === name));
  const large = preloadHrefs
    .filter((href) => !shared.includes(href) && !runByScript.has(href) && sizeOf(href) >= OWN_TASK_BYTES)
    .sort((a, b) => sizeOf(b) - sizeOf(a));
  return [...shared, ...large];
}

/** Sizes of the client build's files, read once per file. */
const moduleSizes = new Map<string, number>();
function moduleSize(href: string): number {
  let size = moduleSizes.get(href);
  if (size === undefined) {
    try {
      size = statSync(path.join(CLIENT_BUILD, href.replace(/^\/+/, ""))).size;
    } catch {
      size = 0;
    }
    moduleSizes.set(href, size);
  }
  return size;
}

/** What React Router's module script imports itself: the route modules and the client entry. */
function scriptModules(html: string): Set<string> {
  const start = html.search(MODULE_SCRIPT);
  const script = start < 0 ? "" : html.slice(start, html.indexOf("</script>", start));
  return new Set([...script.matchAll(/\bimport(?:\s+\*\s+as\s+\w+\s+from\s*|\()\s*"([^"]+)"/g)].map((match) => match[1]!));
}

/**
 * React Router's module script inert until the module start runs, and its preloads kept in a
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
  const hrefs = preloads.map((link) => /\shref="([^"]+)"/.exec(link)?.[1]).filter((href): href is string => Boolean(href));
  return (
    withoutPreloads.slice(0, at) +
    template +
    withoutPreloads.slice(at).replace(MODULE_SCRIPT, `<script type="${DEFERRED_TYPE}">`) +
    `<script>${startModules(moduleSteps(hrefs, scriptModules(html), moduleSize))}</script>` +
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
    const switcher = `<script>${stylesheetWhenNeeded(await stylesheetAttributeSelectors(processed))}</script>`;
    const page = processed
      .replace(/^(<!DOCTYPE html>\s*<html[^>]*?) data-beasties-container(?:="")?/i, "$1")
      .replace(BEASTIES_SWITCH, () => switcher);
    return deferModules(page);
  } catch (error) {
    logger.warn({ err: error }, "could not inline the critical CSS; the page keeps its stylesheet");
    return html;
  }
}
