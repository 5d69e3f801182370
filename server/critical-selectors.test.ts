import { describe, expect, it } from "vitest";
import { forUndecodedAttributes, normalizeSelector, splitSelectorList } from "./critical-selectors";

describe("normalizeSelector", () => {
  it("keeps the structure of :where/:is, as :is, with its structural pseudo-classes", () => {
    expect(normalizeSelector(":where(.space-y-2>:not(:last-child))")).toBe(":is(.space-y-2 > :not(:last-child))");
    expect(normalizeSelector(":is(.\\*\\:py-1>*)")).toBe(":is(.\\*\\:py-1 > *)");
    expect(normalizeSelector("li:nth-child(2n+1)")).toBe("li:nth-child(2n+1)");
  });

  it("takes out states and pseudo-elements, keeping what they were attached to", () => {
    expect(normalizeSelector(".hover\\:underline:hover")).toBe(".hover\\:underline");
    expect(normalizeSelector(".focus-visible\\:outline-2:focus-visible")).toBe(".focus-visible\\:outline-2");
    expect(normalizeSelector(".file\\:mr-3::file-selector-button")).toBe(".file\\:mr-3");
    expect(normalizeSelector(".group:hover .group-hover\\:text-forja-700")).toBe(".group .group-hover\\:text-forja-700");
    expect(normalizeSelector("input::placeholder")).toBe("input");
    expect(normalizeSelector("a:before")).toBe("a");
  });

  it("puts the universal selector where a state stood alone", () => {
    expect(normalizeSelector(".a :hover")).toBe(".a *");
    expect(normalizeSelector(":hover > .b")).toBe("* > .b");
    expect(normalizeSelector(".a>:focus+.b")).toBe(".a > * + .b");
  });

  it("answers the universal selector when what is left matches any element (never empty: that would drop the rule)", () => {
    expect(normalizeSelector("::selection")).toBe("*");
    expect(normalizeSelector(":focus-visible")).toBe("*");
    expect(normalizeSelector(":where(:hover, .x)")).toBe("*");
    expect(normalizeSelector("*")).toBe("*");
    expect(normalizeSelector("::backdrop")).toBe("*");
  });

  it("drops a :not() whose argument had a state (it would match fewer elements, not more)", () => {
    expect(normalizeSelector(".a:not(:hover)")).toBe(".a");
    expect(normalizeSelector(".a:not(.b:focus)")).toBe(".a");
    expect(normalizeSelector(".a:not(.b)")).toBe(".a:not(.b)");
  });

  it("leaves escaped characters, attribute values and :has() intact", () => {
    expect(normalizeSelector(".\\[\\&\\>li\\]\\:mt-1>li")).toBe(".\\[\\&\\>li\\]\\:mt-1 > li");
    expect(normalizeSelector('a[href^="http:"]:hover')).toBe('a[href^="http:"]');
    expect(normalizeSelector('[class~="x"] ~ p')).toBe('[class~="x"] ~ p');
    expect(normalizeSelector(".has-\\[\\:checked\\]\\:bg-x:has(:checked)")).toBe(".has-\\[\\:checked\\]\\:bg-x");
    expect(normalizeSelector("label:has(input)")).toBe("label:has(input)");
  });
});

describe("splitSelectorList", () => {
  it("splits at top-level commas only", () => {
    expect(splitSelectorList(':is(a, b) c, [data-x="1,2"], d')).toEqual([":is(a, b) c", '[data-x="1,2"]', "d"]);
  });
});

describe("attributeSelectors", () => {
  it("lists, normalised, the selectors that select on an attribute, inside at-rules too, and nothing else", async () => {
    const { attributeSelectors } = await import("./critical-css");
    const css =
      "/* [comentario] */@layer base{button,input:where([type=button],[type=reset]){appearance:button}abbr:where([title]){text-decoration:underline dotted}}" +
      '@layer utilities{.aria-pressed\\:bg-x[aria-pressed=true]:hover{color:red}.\\[\\&\\>li\\]\\:mt-1>li{margin:0}@media (hover:hover){details[open]>summary::marker{content:""}}.p-1{padding:1px}}';
    expect(attributeSelectors(css)).toEqual(["input:is([type=button],[type=reset])", "abbr:is([title])", ".aria-pressed\\:bg-x[aria-pressed=true]", "details[open] > summary"]);
  });
});

describe("forUndecodedAttributes", () => {
  it("writes escaped characters as the HTML's entities, escaped for CSS", () => {
    expect(forUndecodedAttributes(".\\[\\&\\>\\:first-child\\]\\:mt-0 > :first-child")).toBe(".\\[\\&amp\\;\\&gt\\;\\:first-child\\]\\:mt-0 > :first-child");
    expect(forUndecodedAttributes(".p-1")).toBe(".p-1");
  });

  it("matches the class in Beasties' document, which keeps the HTML's entities", async () => {
    const { PageBeasties } = await import("./critical-css");
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = await mkdtemp(path.join(tmpdir(), "forja-criticas-"));
    try {
      await writeFile(path.join(dir, "s.css"), ".\\[\\&\\>\\:first-child\\]\\:mt-0>:first-child{margin-top:0}.otra{color:red}");
      const html = '<!DOCTYPE html><html><head><link rel="stylesheet" href="/s.css"></head><body><div class="[&amp;&gt;:first-child]:mt-0"><p>a</p></div></body></html>';
      const out = await new PageBeasties({ path: dir, publicPath: "/", logLevel: "silent" }).process(html);
      expect(out).toContain("margin-top:0");
      expect(out).not.toContain("color:red");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
