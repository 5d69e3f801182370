import { useContext } from "react";
import { UNSAFE_FrameworkContext, UNSAFE_useScrollRestoration } from "react-router";

// React Router's <ScrollRestoration> with a lighter inline script (docs/decisions/0071). React
// Router's script runs inside the parse of every page: it gives a new history entry its key
// (history.replaceState) and reads sessionStorage, 7–28 ms of that parse on a small machine,
// measured. Only an entry the reader comes back to (reload, Back) can have a position to restore,
// and that entry has its key already: there this script restores it during the parse, as React
// Router's does. On a new entry it leaves the key and the first sessionStorage read to two short
// tasks after the parse, and the app's entry module makes sure of the key before the router starts.

/** sessionStorage's key for the positions: React Router's own, so both read the same record. */
const STORAGE_KEY = "react-router-scroll-positions";

/**
 * A key for this history entry, and the index React Router's history gives a new entry (0), so its
 * start-up does not replace the state a second time; a no-op when the entry has its key.
 */
export function ensureHistoryKey(): void {
  const state: unknown = window.history.state;
  const current = state && typeof state === "object" ? (state as Record<string, unknown>) : {};
  if (current.key) return;
  window.history.replaceState({ idx: 0, ...current, key: Math.random().toString(32).slice(2) }, "");
}

/** ensureHistoryKey and the first sessionStorage read, one task each, as the page's inline script. */
export const SCROLL_MEMORY_SCRIPT = [
  "(function(k){",
  "var s=window.history.state;",
  "if(s&&s.key){",
  'try{var y=JSON.parse(sessionStorage.getItem(k)||"{}")[s.key];if(typeof y==="number")window.scrollTo(0,y)}',
  "catch(e){console.error(e);sessionStorage.removeItem(k)}",
  "return}",
  "setTimeout(function(){",
  "var t=window.history.state,c=t&&typeof t===\"object\"?t:{};",
  'if(!c.key)window.history.replaceState(Object.assign({idx:0},c,{key:Math.random().toString(32).slice(2)}),"");',
  "setTimeout(function(){try{sessionStorage.getItem(k)}catch(e){}},0)",
  "},0)",
  `})(${JSON.stringify(STORAGE_KEY)})`,
].join("");

export function ScrollMemory() {
  const framework = useContext(UNSAFE_FrameworkContext);
  UNSAFE_useScrollRestoration({ storageKey: STORAGE_KEY });
  if (!framework || framework.isSpaMode) return null;
  return <script nonce={framework.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SCROLL_MEMORY_SCRIPT }} />;
}
