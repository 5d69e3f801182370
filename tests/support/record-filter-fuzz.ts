// Random `filter` and `sort` strings for the record API's fuzz tests: the compiler's own
// (app/db/record-filter.server.test.ts, on a throwaway table) and the one over HTTP
// (app/routes/api/records-filter-fuzz.test.ts, on the real collections). Seeded, so a failure
// replays from its seed; the generators take the field names (and types) they draw from.

export type FuzzFieldType = "text" | "number" | "bool" | "date" | "json-array";
export type Random = () => number;

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
export function prng(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** SQL-looking payloads aimed at `table`: they must only ever be bound as values or refused. */
export function sqlInjections(table: string): string[] {
  return [
    `'; drop table ${table}; --`,
    `"; delete from ${table}; --`,
    "' or 1=1 --",
    `1); drop table ${table}; --`,
    `$$; truncate ${table}; $$`,
    `\\'; update ${table} set id = id; --`,
    "%' or '1'='1",
    "') union select * from pg_tables --",
  ];
}

export const OPERATORS = ["=", "!=", ">", ">=", "<", "<=", "~", "!~", "?=", "?!=", "?>", "?>=", "?<", "?<=", "?~", "?!~"] as const;
export const JUNK = ["$", ";", "--", "/*", "*/", "'", '"', "\\", "(", ")", "&", "|", "=", "!", "?", ",", ".", "@", "#", "ñ", "😀", "\u0000", "\r", "/", "//", "%", "_", "`", "{:x}", "[[x]]"];
export const MACROS = ["@now", "@todayStart", "@yesterday", "@year", "@hour", "@weekday", "@request.auth.id", "@monthEnd", "@request.body.x"];
const TEXT_BITS = ["a", "S-000", "acme", "soporte", "%", "_", "\\", "\\'", '\\"', "'", '"', "ñandú", "😀", "2026-01-05", "2026-01-02 03:04:05.000Z", "25.5", "true", " ", "\n", "plano.pdf"];

/**
 * A random filter over `fieldNames`: mostly grammatical comparisons of fields, quoted text (with
 * `injections` among it), numbers, macros and constants joined by && / || and parentheses; some
 * with junk spliced in, some token soup, some a bare injection.
 */
export function fuzzFilter(random: Random, fieldNames: readonly string[], injections: readonly string[]): string {
  const any = <T>(list: readonly T[]): T => pick(random, list);
  const textBits = [...TEXT_BITS, ...injections];
  const quoted = () => {
    const quote = random() < 0.5 ? "'" : '"';
    let body = "";
    const parts = Math.floor(random() * 4);
    for (let i = 0; i < parts; i++) body += any(textBits);
    // Mostly well-formed: escape the chosen quote (fexpr's only escape); sometimes leave it broken.
    if (random() < 0.85) body = body.replaceAll("\\", "").replaceAll(quote, `\\${quote}`);
    return `${quote}${body}${quote}`;
  };
  const number = () => {
    const n = (random() - 0.5) * 10 ** Math.floor(random() * 8);
    return random() < 0.5 ? String(Math.round(n)) : n.toFixed(Math.floor(random() * 4));
  };
  const operand = (): string => {
    const roll = random();
    if (roll < 0.4) return any(fieldNames);
    if (roll < 0.65) return quoted();
    if (roll < 0.8) return number();
    if (roll < 0.9) return any(MACROS);
    return any(["true", "false", "null", "TRUE", "Null"]);
  };
  const comparison = () => `${operand()} ${any(OPERATORS)} ${operand()}`;
  const expression = (depth: number): string => {
    const roll = random();
    if (depth < 4 && roll < 0.2) return `(${expression(depth + 1)})`;
    if (depth < 4 && roll < 0.5) return `${expression(depth + 1)} ${any(["&&", "||"])} ${expression(depth + 1)}`;
    return comparison();
  };

  const mode = random();
  if (mode < 0.55) return expression(0);
  if (mode < 0.75) {
    // A valid-looking filter with junk spliced in somewhere.
    const base = expression(0);
    const at = Math.floor(random() * (base.length + 1));
    return base.slice(0, at) + any([...JUNK, ...injections]) + base.slice(at);
  }
  if (mode < 0.9) {
    // Token soup.
    const tokens = [...JUNK, ...OPERATORS, "&&", "||", " ", "(", ")", ...MACROS];
    let text = "";
    const count = 1 + Math.floor(random() * 12);
    for (let i = 0; i < count; i++) text += random() < 0.5 ? any(tokens) : operand();
    return text;
  }
  // A raw injection, bare or after a comparison.
  return random() < 0.5 ? any(injections) : `${fieldNames[0]} = 'x' ${any(injections)}`;
}

/** A random sort over `fieldNames`: mostly `-field,+field` lists, some with junk terms or separators. */
export function fuzzSort(random: Random, fieldNames: readonly string[], injections: readonly string[]): string {
  const any = <T>(list: readonly T[]): T => pick(random, list);
  const junk = [",", " ", "@rowid", "", ...JUNK, ...injections];
  const count = 1 + Math.floor(random() * 4);
  const terms = Array.from({ length: count }, () => (random() < 0.8 ? `${any(["", "-", "+", " -", "--"])}${any([...fieldNames, "@random"])}` : any(junk)));
  return terms.join(random() < 0.9 ? "," : any(junk));
}

// --- Typed generation: comparisons a collection would accept, then mutated -----------------------

const DATE_VALUES = ["2026-01-05", "2026-01-02 03:04:05.000Z", "2025-12-31T23:59:59.999-06:00", "1970-01-01", "9999-12-31", "2026-02-30", "0000-01-01", "hoy"];
const DATE_MACROS = ["@now", "@todayStart", "@todayEnd", "@yesterday", "@tomorrow", "@monthStart", "@monthEnd", "@yearStart", "@yearEnd"];
const NUMBER_MACROS = ["@year", "@month", "@day", "@hour", "@minute", "@second", "@weekday"];
const UNICODE = ["ñandú", "Ñ", "é", "😀", "漢字", "\u200b", "\u202e", "\ufeff", "\ud800", "Ａ", "ǅ", "İ", "ß"];
const HUGE_NUMBERS = ["9".repeat(400), `-${"9".repeat(80)}`, "1e309", "1e-400", "0.000000000000000000000000000001", "-0", "00012", ".5", "5.", "1_000", "0x10", "NaN", "Infinity"];

/**
 * Filters shaped by each field's type, so most compile (and reach the database), then often mutated:
 * truncated, an operator swapped, unicode, NUL bytes or quotes spliced in, huge numbers, deep
 * parentheses, `@request.auth.*`, date and number macros, SQL-looking payloads.
 */
export function typedFilter(random: Random, fields: Readonly<Record<string, FuzzFieldType>>, injections: readonly string[]): string {
  const any = <T>(list: readonly T[]): T => pick(random, list);
  const names = Object.keys(fields);
  const quote = (text: string) => {
    const mark = random() < 0.5 ? "'" : '"';
    return `${mark}${text.replaceAll("\\", "\\\\").replaceAll(mark, `\\${mark}`)}${mark}`;
  };
  const text = () => {
    const roll = random();
    if (roll < 0.5) return quote(any(["acme", "soporte", "SOL-2026", "COT-", "PED-", "%", "_", "50%", "a\\%b", "", " ", ...UNICODE]));
    if (roll < 0.7) return quote(any(injections));
    if (roll < 0.85) return "@request.auth.id";
    return any(["null", "''", `"${"x".repeat(2000)}"`]);
  };
  const valueFor = (type: FuzzFieldType): string => {
    switch (type) {
      case "number":
        return random() < 0.7 ? String(Math.round((random() - 0.3) * 10 ** Math.floor(random() * 7))) : any([...HUGE_NUMBERS, ...NUMBER_MACROS, "null", "''", "'12.5'"]);
      case "bool":
        return any(["true", "false", "1", "0", "'true'", "null", "TRUE"]);
      case "date":
        return random() < 0.5 ? any(DATE_MACROS) : random() < 0.8 ? quote(any(DATE_VALUES)) : "null";
      default:
        return text();
    }
  };
  const operatorsFor = (type: FuzzFieldType): readonly string[] => {
    if (type === "bool") return ["=", "!="];
    if (type === "json-array") return ["?=", "?!=", "?~", "?!~", "?>", "?<="];
    if (type === "text") return ["=", "!=", "~", "!~", ">", "<"];
    return ["=", "!=", ">", ">=", "<", "<="];
  };
  const comparison = (): string => {
    const name = any(names);
    const type = fields[name]!;
    const roll = random();
    if (type === "json-array" && roll < 0.3) return `${name}:length ${any([">", "=", "<="])} ${Math.floor(random() * 4)}`;
    if (type === "json-array" && roll < 0.5) return `${name}:each ${any(["=", "~", "!="])} ${text()}`;
    if (type === "json-array" && roll < 0.6) return `${name} ${any(["=", "!="])} ${any(["''", "null"])}`;
    if (type === "text" && roll < 0.15) return `${name}:lower ${any(["=", "~"])} ${text()}`;
    // Another field of the same type on the right, now and then.
    const peers = names.filter((other) => fields[other] === type);
    const right = roll > 0.9 && peers.length > 1 ? any(peers) : valueFor(type);
    return random() < 0.1 ? `${right} ${any(operatorsFor(type))} ${name}` : `${name} ${any(operatorsFor(type))} ${right}`;
  };
  const expression = (depth: number): string => {
    const roll = random();
    if (depth < 3 && roll < 0.15) return `(${expression(depth + 1)})`;
    if (depth < 3 && roll < 0.45) return `${expression(depth + 1)} ${any(["&&", "||"])} ${expression(depth + 1)}`;
    return comparison();
  };
  const filter = expression(0);
  return random() < 0.45 ? mutateFilter(random, filter, injections) : filter;
}

/** One random damage to a filter (or an extreme form of it). */
export function mutateFilter(random: Random, filter: string, injections: readonly string[]): string {
  const any = <T>(list: readonly T[]): T => pick(random, list);
  const at = Math.floor(random() * (filter.length + 1));
  const splice = (piece: string) => filter.slice(0, at) + piece + filter.slice(at);
  switch (Math.floor(random() * 11)) {
    case 0:
      return filter.slice(0, at); // truncated
    case 1:
      return filter.replace(/(\?|!)?(=|~|>=?|<=?)/, any([...OPERATORS, "==", "=>", "<>", "!", "?", "&&", "LIKE", "is"])); // an operator swapped
    case 2:
      return splice(any(UNICODE));
    case 3:
      return splice("\u0000");
    case 4:
      return splice(any(["'", '"', "\\", "\\'", '\\"', "`"]));
    case 5:
      return splice(` ${any(HUGE_NUMBERS)} `);
    case 6: {
      const depth = any([5, 40, 200, 2000]);
      return `${"(".repeat(depth)}${filter}${")".repeat(random() < 0.8 ? depth : depth - 1)}`;
    }
    case 7:
      return `${filter} ${any(["&&", "||"])} @request.auth.${any(["id", "email", "collectionName", "verified", "password", "tokenKey", "id.x", ""])} ${any(["=", "!=", "~"])} ${any(["''", "'x'", "true", "@request.auth.id"])}`;
    case 8:
      return `${filter} ${any(["&&", "||"])} ${any([...MACROS, ...DATE_MACROS, ...NUMBER_MACROS, "@collection.users.email", "@request.query.x", "@request.headers.x", "@rowid"])} ${any(["=", ">", "<", "~"])} ${any(["@now", "2026", "'2026-01-01'", "null"])}`;
    case 9:
      return random() < 0.5 ? splice(` ${any(injections)} `) : `${filter}${any(injections)}`;
    default:
      return filter.repeat(1 + Math.floor(random() * 3)).slice(0, 1 + Math.floor(random() * 2 * filter.length + 1));
  }
}
