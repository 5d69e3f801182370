// PocketBase's `filter` and `sort` query syntax (its fexpr grammar) parsed into a small AST.
// Browser-safe on purpose: no database and no Node APIs, so forms and the SDK-facing code can
// validate a filter before sending it. app/db/record-filter.server.ts turns the AST into SQL.
//
// Deliberate differences from fexpr, all stricter or harmless:
// - an operand must be followed by an operator (fexpr silently drops `a (b = 1)`'s `a`);
// - parentheses are matched on tokens, so a `)` inside a `//` comment is just comment text;
// - `true`, `false`, `null` (any case) are literals, never field names;
// - `@` identifiers must be one of FILTER_MACROS (PocketBase refuses the others when resolving).

/** PocketBase's own limits (tools/search/provider.go, filter.go) plus a nesting bound of ours. */
export const MAX_FILTER_LENGTH = 3500;
export const MAX_FILTER_DEPTH = 40;
export const MAX_FILTER_EXPRESSIONS = 200;
/** fexpr allows a function inside a function inside a function, no deeper. */
export const MAX_FUNCTION_DEPTH = 3;
export const MAX_SORT_FIELDS = 8;
export const MAX_SORT_FIELD_LENGTH = 255;

/** A filter or sort the caller got wrong: the record API answers 400. `position` is a 0-based offset. */
export class FilterError extends Error {
  readonly position: number | undefined;

  constructor(message: string, position?: number) {
    super(message);
    this.name = "FilterError";
    this.position = position;
  }
}

export const COMPARISON_OPERATORS = [
  "=",
  "!=",
  ">",
  ">=",
  "<",
  "<=",
  "~",
  "!~",
  "?=",
  "?!=",
  "?>",
  "?>=",
  "?<",
  "?<=",
  "?~",
  "?!~",
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** The `@` identifiers we resolve; PocketBase has more `@request.*` ones, which we refuse. */
export const FILTER_MACROS = [
  "@now",
  "@yesterday",
  "@tomorrow",
  "@todayStart",
  "@todayEnd",
  "@monthStart",
  "@monthEnd",
  "@yearStart",
  "@yearEnd",
  "@second",
  "@minute",
  "@hour",
  "@day",
  "@month",
  "@weekday",
  "@year",
  "@request.auth.id",
] as const;
export type FilterMacro = (typeof FILTER_MACROS)[number];

export type FilterOperand =
  | { kind: "field"; name: string; position: number }
  | { kind: "macro"; name: FilterMacro; position: number }
  | { kind: "text"; value: string; position: number }
  /** `literal` as written (fexpr keeps it as text; it may exceed a double's precision). */
  | { kind: "number"; literal: string; position: number }
  | { kind: "bool"; value: boolean; position: number }
  | { kind: "null"; position: number }
  | { kind: "function"; name: string; args: FilterOperand[]; position: number };

export interface FilterComparison {
  kind: "comparison";
  left: FilterOperand;
  operator: ComparisonOperator;
  right: FilterOperand;
  position: number;
}

export type FilterNode = FilterComparison | { kind: "and" | "or"; operands: FilterNode[] };

export interface SortField {
  field: string;
  dir: "asc" | "desc";
}

// ---------------------------------------------------------------------------------------------
// Scanner

type Token =
  | { type: "operand"; operand: FilterOperand; pos: number }
  | { type: "sign"; op: ComparisonOperator; pos: number }
  | { type: "join"; op: "&&" | "||"; pos: number }
  | { type: "open"; pos: number }
  | { type: "close"; pos: number }
  | { type: "eof"; pos: number };

const OPERATOR_SET: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);
const MACRO_SET: ReadonlySet<string> = new Set(FILTER_MACROS);

// fexpr's character classes: ASCII only, and only space, tab and newline are whitespace.
const isWhitespace = (ch: string) => ch === " " || ch === "\t" || ch === "\n";
const isLetter = (ch: string) => (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z");
const isDigit = (ch: string) => ch >= "0" && ch <= "9";
const isSignChar = (ch: string) => "=?!><~".includes(ch);
const isJoinChar = (ch: string) => ch === "&" || ch === "|";
const isIdentifierStart = (ch: string) => isLetter(ch) || ch === "@" || ch === "_" || ch === "#";
const isIdentifierPart = (ch: string) => isLetter(ch) || isDigit(ch) || ch === "_" || ch === "." || ch === ":";

/** A character for a message: the whole code point, quoted as JSON would. */
function describeChar(text: string, pos: number): string {
  const code = text.codePointAt(pos);
  return JSON.stringify(code === undefined ? "" : String.fromCodePoint(code));
}

class Scanner {
  pos = 0;

  constructor(private readonly text: string) {}

  private peekChar(offset = 0): string {
    return this.text.charAt(this.pos + offset);
  }

  /** Skips whitespace and `//` comments (to the end of the line), as fexpr's parser ignores them. */
  private skipTrivia(): void {
    for (;;) {
      const ch = this.peekChar();
      if (isWhitespace(ch)) {
        this.pos++;
      } else if (ch === "/") {
        if (this.peekChar(1) !== "/") throw new FilterError(`Invalid comment at position ${this.pos}.`, this.pos);
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.text.length : end + 1;
      } else {
        return;
      }
    }
  }

  next(): Token {
    this.skipTrivia();
    const start = this.pos;
    const ch = this.peekChar();
    if (ch === "") return { type: "eof", pos: start };
    if (ch === "(") {
      this.pos++;
      return { type: "open", pos: start };
    }
    if (ch === ")") {
      this.pos++;
      return { type: "close", pos: start };
    }
    if (isIdentifierStart(ch)) return { type: "operand", operand: this.scanIdentifier(MAX_FUNCTION_DEPTH), pos: start };
    if (ch === "-" || isDigit(ch)) return { type: "operand", operand: this.scanNumber(), pos: start };
    if (ch === "'" || ch === '"') return { type: "operand", operand: this.scanText(), pos: start };
    if (isSignChar(ch)) {
      const literal = this.scanRun(isSignChar);
      if (!OPERATOR_SET.has(literal)) throw new FilterError(`Invalid operator "${literal}" at position ${start}.`, start);
      return { type: "sign", op: literal as ComparisonOperator, pos: start };
    }
    if (isJoinChar(ch)) {
      const literal = this.scanRun(isJoinChar);
      if (literal !== "&&" && literal !== "||") {
        throw new FilterError(`Invalid join operator "${literal}" at position ${start} (expected && or ||).`, start);
      }
      return { type: "join", op: literal, pos: start };
    }
    throw new FilterError(`Unexpected character ${describeChar(this.text, start)} at position ${start}.`, start);
  }

  private scanRun(accept: (ch: string) => boolean): string {
    const start = this.pos;
    while (this.pos < this.text.length && accept(this.peekChar())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Digits with at most one dot, optionally after a leading minus; no exponent (as fexpr). */
  private scanNumber(): FilterOperand {
    const start = this.pos;
    let hadDot = false;
    while (this.pos < this.text.length) {
      const ch = this.peekChar();
      if (isDigit(ch) || (ch === "-" && this.pos === start) || (ch === "." && !hadDot)) {
        if (ch === ".") hadDot = true;
        this.pos++;
      } else {
        break;
      }
    }
    const literal = this.text.slice(start, this.pos);
    if (literal === "-" || literal.endsWith(".") || literal === "-.") {
      throw new FilterError(`Invalid number "${literal}" at position ${start}.`, start);
    }
    return { kind: "number", literal, position: start };
  }

  /**
   * Quoted text ends at the first matching quote not preceded by a backslash; only `\'` (or `\"`
   * in double quotes) is an escape, every other backslash stays as written — exactly fexpr's rule,
   * which is also what the PocketBase SDK's pb.filter() produces.
   */
  private scanText(): FilterOperand {
    const start = this.pos;
    const quote = this.peekChar();
    let index = start + 1;
    for (;;) {
      if (index >= this.text.length) {
        throw new FilterError(`Unterminated quoted text at position ${start}.`, start);
      }
      if (this.text[index] === quote && this.text[index - 1] !== "\\") break;
      index++;
    }
    const raw = this.text.slice(start + 1, index);
    this.pos = index + 1;
    return { kind: "text", value: raw.replaceAll(`\\${quote}`, quote), position: start };
  }

  /** An identifier, a literal word, a macro, or — when `(` follows at once — a function call. */
  private scanIdentifier(functionDepth: number): FilterOperand {
    const start = this.pos;
    this.pos++;
    this.scanRun(isIdentifierPart);
    const name = this.text.slice(start, this.pos);
    const last = name.charAt(name.length - 1);
    const invalid = last === "." || last === ":" || (name.length === 1 && !isLetter(name));
    if (this.peekChar() === "(") {
      if (functionDepth <= 0) {
        throw new FilterError(`Functions are nested too deeply (max ${MAX_FUNCTION_DEPTH}) at position ${start}.`, start);
      }
      if (invalid) throw new FilterError(`Invalid function name "${name}" at position ${start}.`, start);
      return this.scanFunctionArgs(name, start, functionDepth);
    }
    if (invalid) throw new FilterError(`Invalid identifier "${name}" at position ${start}.`, start);
    const lower = name.toLowerCase();
    if (lower === "true" || lower === "false") return { kind: "bool", value: lower === "true", position: start };
    if (lower === "null") return { kind: "null", position: start };
    if (name.startsWith("@")) {
      if (!MACRO_SET.has(name)) throw new FilterError(`Unsupported identifier "${name}" at position ${start}.`, start);
      return { kind: "macro", name: name as FilterMacro, position: start };
    }
    return { kind: "field", name, position: start };
  }

  /** Comma-separated identifiers, numbers, texts or nested calls; one trailing comma allowed. */
  private scanFunctionArgs(name: string, start: number, functionDepth: number): FilterOperand {
    this.pos++; // the "("
    const args: FilterOperand[] = [];
    let expectComma = false;
    for (;;) {
      this.skipTrivia();
      const at = this.pos;
      const ch = this.peekChar();
      if (ch === "") throw new FilterError(`Missing ")" for function "${name}" at position ${start}.`, start);
      if (ch === ")") {
        this.pos++;
        return { kind: "function", name, args, position: start };
      }
      if (ch === ",") {
        if (!expectComma) throw new FilterError(`Unexpected "," in function "${name}" at position ${at}.`, at);
        expectComma = false;
        this.pos++;
        continue;
      }
      if (expectComma) throw new FilterError(`Expected "," or ")" in function "${name}" at position ${at}.`, at);
      if (isIdentifierStart(ch)) args.push(this.scanIdentifier(functionDepth - 1));
      else if (ch === "-" || isDigit(ch)) args.push(this.scanNumber());
      else if (ch === "'" || ch === '"') args.push(this.scanText());
      else {
        throw new FilterError(
          `Unexpected character ${describeChar(this.text, at)} in function "${name}" at position ${at}.`,
          at,
        );
      }
      expectComma = true;
    }
  }
}

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
