import { z } from "~/lib/zod";

// The stored format of long texts: Lexical's serialized editor state (docs/decisions/0039).
// Only the shape is checked here; what a node may say is decided when it is rendered.

/** One serialized node. Element nodes carry `children`, text nodes `text` and `format`. */
export interface RichTextNode {
  type: string;
  children?: RichTextNode[];
  [key: string]: unknown;
}

export interface RichTextDocument {
  root: RichTextNode & { type: "root"; children: RichTextNode[] };
}

/** Limits of one document: room for a long legal page, not for a payload that stalls the renderer. */
export const RICH_TEXT_LIMITS = { characters: 500_000, nodes: 20_000, depth: 24 } as const;

const NOT_A_DOCUMENT = "El texto con formato no es válido; vuelva a abrirlo en el editor.";

/** A document with nothing in it: the value of an empty field. */
export function emptyRichText(): RichTextDocument {
  return { root: { type: "root", version: 1, direction: null, format: "", indent: 0, children: [] } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why the tree is not a document, or null. Walks without recursion so depth cannot overflow the stack. */
function treeProblem(root: unknown): string | null {
  if (!isObject(root) || root.type !== "root" || !Array.isArray(root.children)) return NOT_A_DOCUMENT;
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    count += 1;
    if (count > RICH_TEXT_LIMITS.nodes) return `El texto tiene demasiados elementos (máximo ${RICH_TEXT_LIMITS.nodes.toLocaleString("es-MX")}).`;
    if (depth > RICH_TEXT_LIMITS.depth) return `El texto tiene demasiados niveles anidados (máximo ${RICH_TEXT_LIMITS.depth}).`;
    if (!isObject(node) || typeof node.type !== "string" || node.type.length === 0 || node.type.length > 64) return NOT_A_DOCUMENT;
    if (node.type === "root" && depth > 0) return NOT_A_DOCUMENT;
    if ("text" in node && typeof node.text !== "string") return NOT_A_DOCUMENT;
    if ("format" in node && typeof node.format !== "number" && typeof node.format !== "string") return NOT_A_DOCUMENT;
    if ("children" in node) {
      if (!Array.isArray(node.children)) return NOT_A_DOCUMENT;
      for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * A rich text value as it arrives from a form or the record API: the JSON string the editor
 * writes, or the parsed object. Bounded in size, node count and depth; Spanish messages.
 */
export const RichTextSchema = z
  .union([z.string(), z.record(z.string(), z.unknown())], { error: NOT_A_DOCUMENT })
  .transform((value, ctx): RichTextDocument => {
    let parsed: unknown = value;
    if (typeof value === "string") {
      if (value.length > RICH_TEXT_LIMITS.characters) {
        ctx.addIssue({ code: "custom", message: `El texto es demasiado largo (máximo ${RICH_TEXT_LIMITS.characters.toLocaleString("es-MX")} caracteres con su formato).` });
        return z.NEVER;
      }
      if (value.trim() === "") return emptyRichText();
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: NOT_A_DOCUMENT });
        return z.NEVER;
      }
    }
    const problem = isObject(parsed) ? treeProblem(parsed.root) : NOT_A_DOCUMENT;
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    // Measured after the walk, which bounds the depth JSON.stringify will recurse into.
    if (typeof value !== "string" && JSON.stringify(value).length > RICH_TEXT_LIMITS.characters) {
      ctx.addIssue({ code: "custom", message: `El texto es demasiado largo (máximo ${RICH_TEXT_LIMITS.characters.toLocaleString("es-MX")} caracteres con su formato).` });
      return z.NEVER;
    }
    return parsed as RichTextDocument;
  });

export type RichTextValidation = { success: true; data: RichTextDocument } | { success: false; error: string };

/** Checks a value with RichTextSchema and gives the first Spanish message when it is refused. */
export function validateRichText(value: unknown): RichTextValidation {
  const result = RichTextSchema.safeParse(value);
  if (result.success) return { success: true, data: result.data };
  return { success: false, error: result.error.issues[0]?.message ?? NOT_A_DOCUMENT };
}
