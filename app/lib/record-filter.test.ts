import { describe, expect, it } from "vitest";
import {
  COMPARISON_OPERATORS,
  FILTER_MACROS,
  FilterError,
  MAX_FILTER_DEPTH,
  MAX_FILTER_EXPRESSIONS,
  MAX_FILTER_LENGTH,
  parseFilter,
  parseSort,
  type FilterNode,
} from "./record-filter";

// The grammar is PocketBase's fexpr; expected results were checked against its scanner.go/parser.go.

/** A compact rendering of the AST so expectations stay readable. */
function show(node: FilterNode): string {
  if (node.kind === "comparison") {
    const operand = (o: typeof node.left): string => {
      switch (o.kind) {
        case "field":
        case "macro":
          return o.name;
        case "text":
          return JSON.stringify(o.value);
        case "number":
          return `#${o.literal}`;
        case "bool":
          return String(o.value);
        case "null":
          return "null";
        case "function":
          return `${o.name}(${o.args.map(operand).join(",")})`;
      }
    };
    return `${operand(node.left)}${node.operator}${operand(node.right)}`;
  }
  return `${node.kind}[${node.operands.map(show).join(" ")}]`;
}

const parsed = (text: string) => show(parseFilter(text));

function errorOf(run: () => unknown): FilterError {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterError) return error;
    throw error;
  }
  throw new Error("expected a FilterError");
}

describe("parseFilter: operands", () => {
  it("reads identifiers with digits, underscores, dots and modifiers", () => {
    expect(parsed("numero = 'S-1'")).toBe('numero="S-1"');
    expect(parsed("_a1.b_2.c3:lower='x'")).toBe('_a1.b_2.c3:lower="x"');
    expect(parsed("cliente.email ~ '@example.com'")).toBe('cliente.email~"@example.com"');
    expect(parsed("#hash = 1")).toBe("#hash=#1");
  });

  it("reads every supported macro and the literal words in any case", () => {
    for (const macro of FILTER_MACROS) expect(parsed(`created < ${macro}`)).toBe(`created<${macro}`);
    expect(parsed("a = TRUE && b = False && c = NULL")).toBe("and[a=true b=false c=null]");
    const node = parseFilter("cliente = @request.auth.id");
    expect(node).toMatchObject({ kind: "comparison", right: { kind: "macro", name: "@request.auth.id" } });
  });

  it("reads integers, decimals and negative numbers as written", () => {
    expect(parsed("a = 10 && b = 10.50 && c = -14 && d = -0.5 && e = 007")).toBe(
      "and[a=#10 b=#10.50 c=#-14 d=#-0.5 e=#007]",
    );
    expect(parsed("a=-.5")).toBe("a=#-.5");
    expect(parsed("a!=-1")).toBe("a!=#-1");
  });

  it("reads single- and double-quoted text with fexpr's escapes", () => {
    expect(parsed(`a = "mixed 'quotes' are fine"`)).toBe(`a="mixed 'quotes' are fine"`);
    expect(parseFilter(`a = "escaped \\"word\\""`)).toMatchObject({ right: { kind: "text", value: 'escaped "word"' } });
    expect(parseFilter(`a = 'it\\'s'`)).toMatchObject({ right: { kind: "text", value: "it's" } });
    // Only the quote is an escape: other backslashes stay as written.
    expect(parseFilter(`a = 'C:\\dir\\n'`)).toMatchObject({ right: { kind: "text", value: "C:\\dir\\n" } });
    expect(parseFilter(`a = '50\\%'`)).toMatchObject({ right: { kind: "text", value: "50\\%" } });
    expect(parseFilter(`a = ''`)).toMatchObject({ right: { kind: "text", value: "" } });
    expect(parseFilter(`a = 'ñandú ✓ (x) && || // no comment'`)).toMatchObject({
      right: { kind: "text", value: "ñandú ✓ (x) && || // no comment" },
    });
  });

  it("allows literals and fields on either side", () => {
    expect(parsed("'x' = a")).toBe('"x"=a');
    expect(parsed("1 < 2")).toBe("#1<#2");
    expect(parsed("a = b")).toBe("a=b");
  });

  it("reads function calls (compiled later) with nested calls and a trailing comma", () => {
    expect(parsed("geoDistance(lon, lat, 1.5, -2) < 20")).toBe("geoDistance(lon,lat,#1.5,#-2)<#20");
    expect(parsed("a(b(c('x',),), ) = 1")).toBe('a(b(c("x")))=#1');
    expect(parsed("f( // note\n 1 ) = 1")).toBe("f(#1)=#1");
    expect(parsed("f() = 1")).toBe("f()=#1");
  });
});

describe("parseFilter: operators and structure", () => {
  it("reads all sixteen comparison operators", () => {
    for (const op of COMPARISON_OPERATORS) expect(parsed(`a ${op} 1`)).toBe(`a${op}#1`);
    expect(parsed("a>=1&&b!~'x'")).toBe('and[a>=#1 b!~"x"]');
  });

  it("binds && tighter than ||", () => {
    expect(parsed("a=1 || b=2 && c=3")).toBe("or[a=#1 and[b=#2 c=#3]]");
    expect(parsed("a=1 && b=2 || c=3")).toBe("or[and[a=#1 b=#2] c=#3]");
    expect(parsed("a=1 && b=2 || c=3 && d=4 || e=5")).toBe("or[and[a=#1 b=#2] and[c=#3 d=#4] e=#5]");
  });

  it("groups with parentheses, nested", () => {
    expect(parsed("(a=1 || b=2) && c=3")).toBe("and[or[a=#1 b=#2] c=#3]");
    expect(parsed("((a=1))")).toBe("a=#1");
    expect(parsed("a=1 && (b=2 || (c=3 && d=4))")).toBe("and[a=#1 or[b=#2 and[c=#3 d=#4]]]");
  });

  it("drops empty groups with their join, as fexpr does", () => {
    expect(parsed("a=1 && ()")).toBe("a=#1");
    expect(parsed("() || a=1")).toBe("a=#1");
    expect(parsed("a=1 || (()) && b=2")).toBe("and[a=#1 b=#2]");
  });

  it("ignores whitespace (space, tab, newline) and // comments", () => {
    expect(parsed(" \t\na\n=\t1 ")).toBe("a=#1");
    expect(parsed("a = 1 // trailing comment")).toBe("a=#1");
    expect(parsed("// first line\na = 1 && // why\n b = 2")).toBe("and[a=#1 b=#2]");
    // A ")" inside a comment is comment text.
    expect(parsed("(a = 1 // note )\n)")).toBe("a=#1");
  });

  it("records 0-based positions", () => {
    const node = parseFilter("  abc = 'x'");
    expect(node).toMatchObject({ kind: "comparison", position: 2, left: { position: 2 }, right: { position: 8 } });
  });

  it("accepts input up to the limits", () => {
    const deep = `${"(".repeat(MAX_FILTER_DEPTH)}a=1${")".repeat(MAX_FILTER_DEPTH)}`;
    expect(parsed(deep)).toBe("a=#1");
    const many = Array.from({ length: MAX_FILTER_EXPRESSIONS }, () => "a=1").join("&&");
    expect(parseFilter(many)).toMatchObject({ kind: "and" });
    const long = `a = '${"x".repeat(MAX_FILTER_LENGTH - 6)}'`;
    expect(long).toHaveLength(MAX_FILTER_LENGTH);
    expect(parseFilter(long)).toMatchObject({ kind: "comparison" });
  });
});

describe("parseFilter: errors", () => {
  const cases: [string, RegExp, number | undefined][] = [
    ["", /^Empty filter expression\.$/, 0],
    ["   // only a comment", /^Empty filter expression\.$/, 0],
    ["()", /^Empty filter expression\.$/, 0],
    ["a = 1 $", /^Unexpected character "\$" at position 6\.$/, 6],
    ["a = 1; drop table x", /^Unexpected character ";" at position 5\.$/, 5],
    ["ñ = 1", /^Unexpected character "ñ" at position 0\.$/, 0],
    ["a = 😀", /^Unexpected character "😀" at position 4\.$/, 4],
    ["a\r= 1", /^Unexpected character "\\r" at position 1\.$/, 1],
    ["a = .5", /^Unexpected character "\." at position 4\.$/, 4],
    ["a = -", /^Invalid number "-" at position 4\.$/, 4],
    ["a = 1.", /^Invalid number "1\." at position 4\.$/, 4],
    ["a = -x", /^Invalid number "-" at position 4\.$/, 4],
    ["a = 1.2.3", /^Unexpected character "\." at position 7\.$/, 7],
    ["a = 'open", /^Unterminated quoted text at position 4\.$/, 4],
    ['a = "open\\"', /^Unterminated quoted text at position 4\.$/, 4],
    ["a = 'x\\\\'", /^Unterminated quoted text at position 4\.$/, 4],
    ["a. = 1", /^Invalid identifier "a\." at position 0\.$/, 0],
    ["a: = 1", /^Invalid identifier "a:" at position 0\.$/, 0],
    ["@ = 1", /^Invalid identifier "@" at position 0\.$/, 0],
    ["_ = 1", /^Invalid identifier "_" at position 0\.$/, 0],
    ["@collection.x = 1", /^Unsupported identifier "@collection\.x" at position 0\.$/, 0],
    ["a = @request.auth.email", /^Unsupported identifier "@request\.auth\.email" at position 4\.$/, 4],
    ["a =! 1", /^Invalid operator "=!" at position 2\.$/, 2],
    ["a == 1", /^Invalid operator "==" at position 2\.$/, 2],
    ["a ? 1", /^Invalid operator "\?" at position 2\.$/, 2],
    ["a=1 & b=2", /^Invalid join operator "&" at position 4 \(expected && or \|\|\)\.$/, 4],
    ["a=1 &&& b=2", /^Invalid join operator "&&&" at position 4/, 4],
    ["a=1 / b", /^Invalid comment at position 4\.$/, 4],
    ["a = 1 b = 2", /^Expected && or \|\| at position 6, got "b"\.$/, 6],
    ["a = 1 (b = 2)", /^Expected && or \|\| at position 6, got "\("\.$/, 6],
    ["a 1", /^Expected an operator at position 2, got "1"\.$/, 2],
    ["a (b = 1)", /^Expected an operator at position 2, got "\("\.$/, 2],
    ["a", /^Expected an operator at position 1, got the end of the filter\.$/, 1],
    ["a =", /^Expected a field or value after the operator at position 3, got the end of the filter\.$/, 3],
    ["a = && b", /^Expected a field or value after the operator at position 4, got "&&"\.$/, 4],
    ["= 1", /^Expected a field or value at position 0, got "="\.$/, 0],
    ["a=1 &&", /^Expected a field or value at position 6, got the end of the filter\.$/, 6],
    ["|| a=1", /^Expected a field or value at position 0, got "\|\|"\.$/, 0],
    ["(a = 1", /^Missing "\)" for the "\(" at position 0\.$/, 0],
    ["a = 1)", /^Unexpected "\)" at position 5\.$/, 5],
    [")", /^Unexpected "\)" at position 0\.$/, 0],
    ["f(1 = 2", /^Expected "," or "\)" in function "f" at position 4\.$/, 4],
    ["f(=) = 2", /^Unexpected character "=" in function "f" at position 2\.$/, 2],
    ["f(1 2) = 1", /^Expected "," or "\)" in function "f" at position 4\.$/, 4],
    ["f(,1) = 1", /^Unexpected "," in function "f" at position 2\.$/, 2],
    ["f(1,,) = 1", /^Unexpected "," in function "f" at position 4\.$/, 4],
    ["f(1", /^Missing "\)" for function "f" at position 0\.$/, 0],
    ["a.(1) = 1", /^Invalid function name "a\." at position 0\.$/, 0],
    ["a(b(c(d(1)))) = 1", /^Functions are nested too deeply \(max 3\) at position 6\.$/, 6],
    ["f('x) = 1", /^Unterminated quoted text at position 2\.$/, 2],
  ];

  it.each(cases)("refuses %j", (text, message, position) => {
    const error = errorOf(() => parseFilter(text));
    expect(error.message).toMatch(message);
    expect(error.position).toBe(position);
  });

  it("refuses input over the limits", () => {
    expect(errorOf(() => parseFilter(`a = '${"x".repeat(MAX_FILTER_LENGTH)}'`)).message).toBe(
      "Filter is too long (max 3500 characters).",
    );
    const deep = `${"(".repeat(MAX_FILTER_DEPTH + 1)}a=1${")".repeat(MAX_FILTER_DEPTH + 1)}`;
    const error = errorOf(() => parseFilter(deep));
    expect(error.message).toBe(`Filter is nested too deeply (max 40 levels) at position ${MAX_FILTER_DEPTH}.`);
    // Deeper than the limit is refused before any recursion can run out of stack.
    expect(errorOf(() => parseFilter("(".repeat(3000))).message).toMatch(/nested too deeply/);
    const many = Array.from({ length: MAX_FILTER_EXPRESSIONS + 1 }, () => "a=1").join("&&");
    expect(errorOf(() => parseFilter(many)).message).toBe("Too many expressions in the filter (max 200).");
  });

  it("is an Error named FilterError", () => {
    const error = errorOf(() => parseFilter("a ="));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("FilterError");
  });
});

describe("parseSort", () => {
  it("reads direction prefixes and trims whitespace", () => {
    expect(parseSort("-created,numero,+nombre")).toEqual([
      { field: "created", dir: "desc" },
      { field: "numero", dir: "asc" },
      { field: "nombre", dir: "asc" },
    ]);
    expect(parseSort(" -created , cliente.email ")).toEqual([
      { field: "created", dir: "desc" },
      { field: "cliente.email", dir: "asc" },
    ]);
    expect(parseSort("@random")).toEqual([{ field: "@random", dir: "asc" }]);
  });

  it("gives no terms for an empty sort", () => {
    expect(parseSort("")).toEqual([]);
    expect(parseSort("  ")).toEqual([]);
  });

  it("refuses empty, malformed, too long or too many fields", () => {
    expect(errorOf(() => parseSort("a,,b")).message).toBe('Invalid sort field "" at position 2.');
    expect(errorOf(() => parseSort("a,")).message).toBe('Invalid sort field "" at position 2.');
    expect(errorOf(() => parseSort("-")).message).toBe('Invalid sort field "" at position 0.');
    expect(errorOf(() => parseSort("--a")).message).toBe('Invalid sort field "-a" at position 0.');
    expect(errorOf(() => parseSort("a b")).message).toBe('Invalid sort field "a b" at position 0.');
    expect(errorOf(() => parseSort("name;drop")).message).toBe('Invalid sort field "name;drop" at position 0.');
    expect(errorOf(() => parseSort("a.")).message).toBe('Invalid sort field "a." at position 0.');
    expect(errorOf(() => parseSort("@rowid")).message).toBe('Invalid sort field "@rowid" at position 0.');
    expect(errorOf(() => parseSort("x".repeat(256))).message).toBe(
      "Sort field is too long (max 255 characters) at position 0.",
    );
    expect(errorOf(() => parseSort("a,b,c,d,e,f,g,h,i")).message).toBe("Too many sort fields (max 8).");
  });
});
