import type { RichTextNode } from "./document";

// The media library ids a long text shows (its image nodes), so a page can look them all up in one
// query before rendering. Walks without recursion, like the validation; browser-safe.

/** Every distinct `mediaId` of the image nodes in `documents` (documents, JSON strings or anything else: skipped). */
export function richTextImageIds(...documents: unknown[]): string[] {
  const ids = new Set<string>();
  const stack: unknown[] = [];
  for (const document of documents) {
    let value = document;
    if (typeof value === "string") {
      if (!value.includes('"image"')) continue;
      try {
        value = JSON.parse(value);
      } catch {
        continue;
      }
    }
    if (typeof value === "object" && value !== null && "root" in value) stack.push((value as { root: unknown }).root);
  }
  let visited = 0;
  // A stored document has at most 20 000 nodes (RICH_TEXT_LIMITS); the bound keeps a hostile value from stalling.
  while (stack.length > 0 && visited < 200_000) {
    const node = stack.pop() as RichTextNode | null;
    visited += 1;
    if (typeof node !== "object" || node === null) continue;
    if (node.type === "image" && typeof node.mediaId === "string" && node.mediaId !== "") ids.add(node.mediaId);
    if (Array.isArray(node.children)) for (const child of node.children) stack.push(child);
  }
  return [...ids];
}
