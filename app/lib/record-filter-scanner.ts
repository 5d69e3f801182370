import { COMPARISON_OPERATORS, FILTER_MACROS, FilterError, MAX_FUNCTION_DEPTH, type ComparisonOperator, type FilterMacro, type FilterOperand } from "./record-filter-syntax";

// The tokenizer of record-filter.ts: characters to operands, operators, joins and parentheses.

// ---------------------------------------------------------------------------------------------
// Scanner

export type Token =
  | { type: "operand"; operand: FilterOperand; pos: number }
  | { type: "sign"; op: ComparisonOperator; pos: number }
  | { type: "join"; op: "&&" | "||"; pos: number }
  | { type: "open"; pos: number }
  | { type: "close"; pos: number }
  | { type: "eof"; pos: number };

const OPERATOR_SET: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);
const MACRO_SET: ReadonlySet<string> = new Set(FILTER_MACROS);

// fexpr's character classes: ASCII only, and only space, tab and newline are whitespace.
export const isWhitespace = (ch: string) => ch === " " || ch === "\t" || ch === "\n";
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

export class Scanner {
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
