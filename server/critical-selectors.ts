// Which elements a stylesheet rule is for, asked of the page's own HTML when its critical CSS is
// chosen (server/critical-css.ts, docs/decisions/0066). A rule is critical when some element of
// the page matches its selector once the parts that depend on the moment are taken out: a state
// (`:hover`, `:focus-visible`, `:checked`, `:open`…) or a pseudo-element (`::before`,
// `::placeholder`…). Structural parts stay, because they tell which elements the rule is for:
// `:where(.space-y-2 > :not(:last-child))` is for the children of `.space-y-2` but the last.
//
// Beasties' own rule removes every pseudo-class with its argument, so that selector became empty
// and its rule was left out of every page: the footer's list spacing, among others, changed when
// the full stylesheet arrived. Here a selector only ever grows more general, never empty by
// accident: a part that cannot be read statically matches anything rather than nothing, so a rule
// in doubt is kept (a few bytes more) instead of dropped (a page that changes under the reader).

/** Pseudo-classes that depend only on the document's structure, kept as they are. */
const STRUCTURAL = new Set([
  "root",
  "empty",
  "first-child",
  "last-child",
  "only-child",
  "first-of-type",
  "last-of-type",
  "only-of-type",
  "nth-child",
  "nth-last-child",
  "nth-of-type",
  "nth-last-of-type",
]);
/** Pseudo-classes whose argument is itself a selector list, normalised in turn. */
const SELECTOR_ARGUMENT = new Set(["is", "where", "not", "has"]);
/** Pseudo-elements written with one colon (CSS2). */
const LEGACY_PSEUDO_ELEMENTS = new Set(["before", "after", "first-line", "first-letter"]);

/** The index just past the bracket or parenthesis group that opens at `start`. */
function groupEnd(text: string, start: number): number {
  const open = text[start];
  const close = open === "(" ? ")" : "]";
  let depth = 0;
  let quote = "";
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (char === "\\") {
      index++;
      continue;
    }
    if (quote) {
      if (char === quote) quote = "";
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === open) depth++;
    else if (char === close && --depth === 0) return index + 1;
  }
  return text.length;
}

/** A selector list split at its top-level commas. */
export function splitSelectorList(list: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < list.length; index++) {
    const char = list[index];
    if (char === "\\") index++;
    else if (char === "(" || char === "[") index = groupEnd(list, index) - 1;
    else if (char === '"' || char === "'") index = list.indexOf(char, index + 1) < 0 ? list.length : list.indexOf(char, index + 1);
    else if (char === ",") {
      parts.push(list.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.map((part) => part.trim());
}

/** The list with each selector normalised; "*" when one of them matches anything (then so does the list). */
function normalizeList(list: string): string {
  const parts = splitSelectorList(list).map(normalizeSelector);
  return parts.includes("*") ? "*" : parts.join(",");
}

/**
 * The selector with states and pseudo-elements taken out and structure kept, for matching against
 * a document; "*" when what is left matches any element.
 */
export function normalizeSelector(selector: string): string {
  // Compounds and the combinators between them: [compound, combinator, compound, …].
  const parts: string[] = [];
  let compound = "";
  // Whether the current compound has begun (it may be empty: a state taken out) and a space followed it.
  let begun = false;
  let spaceBefore = false;
  const combine = (combinator: string) => {
    parts.push(compound, combinator);
    compound = "";
    begun = false;
    spaceBefore = false;
  };
  const beginPart = () => {
    if (spaceBefore) combine(" ");
    begun = true;
  };
  for (let index = 0; index < selector.length; ) {
    const char = selector[index]!;
    if (/\s/.test(char)) {
      if (begun) spaceBefore = true;
      index++;
      continue;
    }
    if (char === ">" || char === "+" || char === "~") {
      combine(char);
      index++;
      continue;
    }
    beginPart();
    if (char === "\\") {
      compound += selector.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === "[") {
      const end = groupEnd(selector, index);
      compound += selector.slice(index, end);
      index = end;
      continue;
    }
    if (char !== ":") {
      compound += char;
      index++;
      continue;
    }
    const element = selector[index + 1] === ":";
    const nameStart = index + (element ? 2 : 1);
    let nameEnd = nameStart;
    while (nameEnd < selector.length && /[\w-]/.test(selector[nameEnd]!)) nameEnd++;
    const name = selector.slice(nameStart, nameEnd).toLowerCase();
    const argumentEnd = selector[nameEnd] === "(" ? groupEnd(selector, nameEnd) : nameEnd;
    const argument = argumentEnd > nameEnd ? selector.slice(nameEnd + 1, argumentEnd - 1) : "";
    index = argumentEnd;
    if (element || LEGACY_PSEUDO_ELEMENTS.has(name)) continue;
    if (STRUCTURAL.has(name)) {
      compound += selector.slice(nameStart - 1, argumentEnd);
      continue;
    }
    if (SELECTOR_ARGUMENT.has(name)) {
      const inner = normalizeList(argument);
      // :not(x) with x made more general would match fewer elements: in doubt it is dropped (matches anything).
      if (inner === "*" || (name === "not" && inner !== argument.trim())) continue;
      compound += `:${name === "where" ? "is" : name}(${inner})`;
    }
    // Any other pseudo-class is a state: it is dropped, so the selector matches whatever has that state at some moment.
  }
  parts.push(compound);
  return parts.map((part, index) => (index % 2 === 1 ? (part === " " ? " " : ` ${part} `) : part || "*")).join("");
}

/** How React writes these characters in an attribute value. */
const ATTRIBUTE_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/**
 * The selector as it must be written to match Beasties' document, which keeps attribute values
 * as the HTML has them, entities undecoded: a class `[&>:first-child]:mt-0` reads there as
 * `[&amp;&gt;:first-child]:mt-0`, so its escaped characters are written the same way.
 */
export function forUndecodedAttributes(selector: string): string {
  return selector.replace(/\\([&<>"'])/g, (_, char: string) => ATTRIBUTE_ENTITIES[char]!.replace(/[&#;]/g, "\\$&"));
}
