import { it } from "vitest";
import { markdownToRichText } from "./from-markdown.reference.server";
it("dump", () => {
  const md = "# T\n\nA **b** *c* `d` [e](https://x.y \"T\") [f](/g) ~~s~~ &amp; &eacute; &#x41; \\* x  \ny\n\n- uno\n  - uno.a\n    - deep\n- dos\n\n3. tres\n4. cuatro\n\n> cita\n> sigue\n>\n> otra **b**\n\n| M | P |\n|:-|-:|\n| A | **5** |\n\n```\ncode\nline\n```\n\n<div>bloque <b>x</b></div>\n\n##### h5\n\n![alt](x.png) fin\n\n---\n\n- [ ] task\n- [x] done\n";
  console.log(JSON.stringify(markdownToRichText(md), null, 1));
});
