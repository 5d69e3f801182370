import { describe, expect, it } from "vitest";
import { richTextImageIds } from "./image-ids";

// The ids a page looks up before rendering long texts: every image node's, once, from documents or
// their JSON, at any depth; anything that is not a document gives none.

const image = (mediaId: unknown) => ({ type: "image", mediaId, alt: "x", version: 1 });
const doc = (...children: unknown[]) => ({ root: { type: "root", children } });

describe("richTextImageIds", () => {
  it("finds the image ids of several documents, nested in lists and tables, each once", () => {
    const first = doc({ type: "paragraph", children: [image("a"), { type: "text", text: "hola" }] }, { type: "list", children: [{ type: "listitem", children: [image("b")] }] });
    const second = JSON.stringify(doc({ type: "table", children: [{ type: "tablerow", children: [{ type: "tablecell", children: [image("c"), image("a")] }] }] }));
    expect(richTextImageIds(first, second).sort()).toEqual(["a", "b", "c"]);
  });

  it("skips what is not a document and image nodes without an id", () => {
    expect(richTextImageIds(null, "", "{roto", 42, { root: null }, doc(image(""), image(7), { type: "text", mediaId: "no-es-imagen" }))).toEqual([]);
  });
});
