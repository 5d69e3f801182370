import { describe, expect, it } from "vitest";
import { pagePathWithSearch, pageUrl } from "./page-url";

describe("pageUrl", () => {
  it.each([
    ["http://x/quotes", "/quotes", ""],
    ["http://x/quotes.data?_routes=routes%2Fquotes%2Flayout", "/quotes", ""],
    ["http://x/_.data", "/", ""],
    ["http://x/industrias-design/medica.data?a=1&_routes=x", "/industrias-design/medica", "?a=1"],
    ["http://x/catalogo?q=buje", "/catalogo", "?q=buje"],
  ])("%s is the page %s%s", (url, pathname, search) => {
    const page = pageUrl(new Request(url));
    expect(page.pathname).toBe(pathname);
    expect(page.search).toBe(search);
  });

  it("gives path and query for redirectTo", () => {
    expect(pagePathWithSearch(new Request("http://x/quotes/abc.data?_routes=r&tab=1"))).toBe("/quotes/abc?tab=1");
  });
});
