// PocketBase's `filter` and `sort` query syntax (its fexpr grammar) parsed into a small AST.
// Browser-safe on purpose: no database and no Node APIs, so forms and the SDK-facing code can
// validate a filter before sending it. app/db/record-filter.server.ts turns the AST into SQL.
//
// Deliberate differences from fexpr, all stricter or harmless:
// - an operand must be followed by an operator (fexpr silently drops `a (b = 1)`'s `a`);
// - parentheses are matched on tokens, so a `)` inside a `//` comment is just comment text;
// - `true`, `false`, `null` (any case) are literals, never field names;
// - `@` identifiers must be one of FILTER_MACROS (PocketBase refuses the others when resolving).

import { isWhitespace, Scanner, type Token } from "./record-filter-scanner";
import {
  FilterError,
  MAX_FILTER_DEPTH,
  MAX_FILTER_EXPRESSIONS,
  MAX_FILTER_LENGTH,
  MAX_SORT_FIELD_LENGTH,
  MAX_SORT_FIELDS,
  type FilterNode,
  type FilterOperand,
  type SortField,
} from "./record-filter-syntax";

// The public face of the syntax: the parser below, and the vocabulary for callers.
export * from "./record-filter-syntax";


// ---------------------------------------------------------------------------------------------
// Parser: expression := item (("&&" | "||") item)*; item := "(" expression? ")" | operand sign operand

function describeToken(token: Token, text: string): string {
  switch (token.type) {
    case "eof":
      return "the end of the filter";
    case "operand":
    case "sign":
    case "join": {
      const end = token.type === "operand" ? operandEnd(token, text) : token.pos + token.op.length;
      const shown = text.slice(token.pos, Math.min(end, token.pos + 40));
      return JSON.stringify(shown);
    }
    case "open":
      return '"("';
    case "close":
      return '")"';
  }
}

/** Where an operand's source text ends, for quoting it in a message (a best effort). */
function operandEnd(token: Extract<Token, { type: "operand" }>, text: string): number {
  let end = token.pos + 1;
  while (end < text.length && !isWhitespace(text.charAt(end)) && !"()&|=!<>~?".includes(text.charAt(end))) end++;
  return end;
}

class Parser {
  private readonly scanner: Scanner;
  private current: Token;
  private expressions = 0;

  constructor(private readonly text: string) {
    this.scanner = new Scanner(text);
    this.current = this.scanner.next();
  }

  /** The current token, read through a call so TypeScript does not keep a stale narrowing. */
  private peek(): Token {
    return this.current;
  }

  private advance(): Token {
    const token = this.current;
    this.current = this.scanner.next();
    return token;
  }

  parse(): FilterNode {
    const node = this.parseExpression(0);
    if (this.current.type === "close") {
      throw new FilterError(`Unexpected ")" at position ${this.current.pos}.`, this.current.pos);
    }
    if (!node) throw new FilterError("Empty filter expression.", 0);
    return node;
  }

  /** Returns null when every item was an empty group (fexpr drops those with their join). */
  private parseExpression(depth: number): FilterNode | null {
    // `&&` binds tighter than `||`: collect OR-separated runs of AND-ed items.
    // An empty group (or filter) has no items; a join must still be followed by one.
    if (this.peek().type === "eof" || this.peek().type === "close") return null;
    const alternatives: FilterNode[][] = [];
    let run: FilterNode[] = [];
    let join: "&&" | "||" = "&&";
    for (;;) {
      const item = this.parseItem(depth);
      if (item) {
        if (join === "||" && run.length > 0) {
          alternatives.push(run);
          run = [];
        }
        run.push(item);
      }
      const token = this.peek();
      if (token.type === "join") {
        join = token.op;
        this.advance();
        continue;
      }
      if (token.type === "eof" || token.type === "close") break;
      throw new FilterError(
        `Expected && or || at position ${token.pos}, got ${describeToken(token, this.text)}.`,
        token.pos,
      );
    }
    if (run.length > 0) alternatives.push(run);
    const ands = alternatives.map((items) => (items.length === 1 ? items[0] : { kind: "and" as const, operands: items }));
    if (ands.length === 0) return null;
    return ands.length === 1 ? ands[0] : { kind: "or", operands: ands };
  }

  private parseItem(depth: number): FilterNode | null {
    const token = this.current;
    if (token.type === "open") {
      if (depth >= MAX_FILTER_DEPTH) {
        throw new FilterError(`Filter is nested too deeply (max ${MAX_FILTER_DEPTH} levels) at position ${token.pos}.`, token.pos);
      }
      this.advance();
      const inner = this.parseExpression(depth + 1);
      if (this.current.type !== "close") {
        throw new FilterError(`Missing ")" for the "(" at position ${token.pos}.`, token.pos);
      }
      this.advance();
      return inner;
    }
    const left = this.expectOperand("a field or value");
    const sign = this.current;
    if (sign.type !== "sign") {
      throw new FilterError(`Expected an operator at position ${sign.pos}, got ${describeToken(sign, this.text)}.`, sign.pos);
    }
    this.advance();
    const right = this.expectOperand("a field or value after the operator");
    if (++this.expressions > MAX_FILTER_EXPRESSIONS) {
      throw new FilterError(`Too many expressions in the filter (max ${MAX_FILTER_EXPRESSIONS}).`, left.position);
    }
    return { kind: "comparison", left, operator: sign.op, right, position: left.position };
  }

  private expectOperand(what: string): FilterOperand {
    const token = this.current;
    if (token.type !== "operand") {
      throw new FilterError(`Expected ${what} at position ${token.pos}, got ${describeToken(token, this.text)}.`, token.pos);
    }
    this.advance();
    return token.operand;
  }
}

/** Parses a PocketBase filter; throws FilterError. An empty or blank filter is an error (as in PocketBase). */
export function parseFilter(text: string): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new FilterError(`Filter is too long (max ${MAX_FILTER_LENGTH} characters).`);
  }
  return new Parser(text).parse();
}

/**
 * Parses PocketBase's sort syntax: comma-separated fields, `-` for descending, optional `+`.
 * Field names are checked against an allow-list when compiled; `@random` is PocketBase's random order.
 */
export function parseSort(text: string): SortField[] {
  if (text.trim() === "") return [];
  const parts = text.split(",");
  if (parts.length > MAX_SORT_FIELDS) throw new FilterError(`Too many sort fields (max ${MAX_SORT_FIELDS}).`);
  let offset = 0;
  return parts.map((part) => {
    const position = offset;
    offset += part.length + 1;
    const trimmed = part.trim();
    const dir = trimmed.startsWith("-") ? "desc" : "asc";
    const field = trimmed.startsWith("-") || trimmed.startsWith("+") ? trimmed.slice(1) : trimmed;
    if (field.length > MAX_SORT_FIELD_LENGTH) {
      throw new FilterError(`Sort field is too long (max ${MAX_SORT_FIELD_LENGTH} characters) at position ${position}.`, position);
    }
    if (!/^(@random|[A-Za-z_][A-Za-z0-9_.]*)$/.test(field) || field.endsWith(".")) {
      throw new FilterError(`Invalid sort field ${JSON.stringify(field)} at position ${position}.`, position);
    }
    return { field, dir };
  });
}
