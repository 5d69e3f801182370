import { createHeadlessEditor } from "@lexical/headless";
import { $generateNodesFromDOM } from "@lexical/html";
import { $createParagraphNode, $getRoot, $isDecoratorNode, $isElementNode, $isTextNode, type ElementNode, type LexicalEditor, type LexicalNode } from "lexical";
import { cleanPastedHtml } from "./clean-paste";
import type { RichTextDocument } from "./document";
import { richTextNodes } from "./nodes";

// HTML into the stored format (Lexical's JSON), on the server: real Lexical nodes built in a headless
// editor from a DOM, so what comes out is exactly what the editor itself would save
// (docs/decisions/0039). Markdown needs no DOM and no editor: it is read by the pure
// markdownToRichText in ./from-markdown.ts, which the seeds use too.

function headlessEditor(): LexicalEditor {
  return createHeadlessEditor({
    namespace: "forja-import",
    nodes: [...richTextNodes],
    onError: (error) => {
      throw error;
    },
  });
}

/** Runs `build` on an empty document and returns the document it left. */
function buildDocument(build: (editor: LexicalEditor) => void): RichTextDocument {
  const editor = headlessEditor();
  editor.update(
    () => {
      $getRoot().clear();
      build(editor);
    },
    { discrete: true },
  );
  return editor.getEditorState().toJSON() as unknown as RichTextDocument;
}

/** Appends nodes to the root, gathering inline ones (text, links, images) into paragraphs. */
function $appendBlocks(nodes: LexicalNode[]): void {
  const root = $getRoot();
  let paragraph: ElementNode | null = null;
  for (const node of nodes) {
    const inline = $isTextNode(node) || (($isElementNode(node) || $isDecoratorNode(node)) && node.isInline()) || node.getType() === "linebreak";
    if (inline) {
      if (!paragraph) {
        paragraph = $createParagraphNode();
        root.append(paragraph);
      }
      paragraph.append(node);
      continue;
    }
    paragraph = null;
    root.append(node);
  }
}

/**
 * HTML (a paste, or a record written through the API as HTML) as a rich text document. It goes
 * through the same cleaner as a paste in the editor, then Lexical's own HTML import.
 */
export async function htmlToRichText(html: string): Promise<RichTextDocument> {
  // jsdom is loaded on first use: most requests never import HTML, and its start-up is not free.
  const { JSDOM } = await import("jsdom");
  const { window } = new JSDOM("");
  try {
    const clean = cleanPastedHtml(html, new window.DOMParser());
    const document = new window.DOMParser().parseFromString(clean, "text/html");
    return buildDocument((editor) => {
      const nodes = $generateNodesFromDOM(editor, document);
      $appendBlocks(nodes);
    });
  } finally {
    window.close();
  }
}
