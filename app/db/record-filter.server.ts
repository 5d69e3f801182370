import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  FilterError,
  parseFilter,
  parseSort,
  type FilterNode,
  type FilterOperand,
  type SortField,
} from "~/lib/record-filter";

// Compiles a parsed PocketBase filter (app/lib/record-filter.ts) into a drizzle WHERE fragment over
// an allow-list of fields, and a sort list into ORDER BY terms. Field expressions come from the
// allow-list only; every value from the filter is a bound parameter with an explicit cast, so no
// filter text ever reaches the SQL string and PostgreSQL never has to guess a parameter's type.
//
// Semantics follow PocketBase where PostgreSQL allows it:
// - `=` / `!=` treat null and '' alike ("empty"), and `!=` is null-safe (IS DISTINCT FROM);
// - `~` / `!~` are case-insensitive contains (ILIKE): a value without an unescaped `%` is wrapped
//   in `%…%` with its `%`, `_` and `\` taken literally; with a `%` only those `%` are wildcards;
// - dates are timestamptz compared as instants when the text is a date, and otherwise as
//   PocketBase's text form "2026-01-02 03:04:05.000Z" (so `created ~ '2026-01'` works);
// - the `?` operators mean "any element" on a json-array field and are plain operators elsewhere;
//   on a json-array field `field:each op v` means "every element" and `field:length` its size.

import {
  constantText,
  formatFilterDate,
  isEmpty,
  likePattern,
  macroValue,
  numericLiteral,
  NUMBER_TEXT,
  parseFilterDate,
  type BaseOperator,
  type Constant,
  type FilterContext,
  type RecordField,
  type RecordFieldMap,
  type ScalarType,
} from "./record-filter-values.server";

export { formatFilterDate, likePattern, parseFilterDate };
export type { FilterContext, RecordField, RecordFieldMap, RecordFieldType } from "./record-filter-values.server";
/** A resolved operand: an SQL expression of a known type, an array field, or a constant value. */
type Term =
  | { kind: "expr"; sql: SQL; type: ScalarType; label: string }
  | { kind: "array"; sql: SQL; each: boolean; label: string }
  | { kind: "constant"; value: Constant; label: string };

const FLIPPED: Record<BaseOperator, BaseOperator> = {
  "=": "=",
  "!=": "!=",
  ">": "<",
  ">=": "<=",
  "<": ">",
  "<=": ">=",
  "~": "~",
  "!~": "!~",
};

const SQL_TYPE: Record<ScalarType, string> = { text: "text", number: "numeric", bool: "boolean", date: "timestamptz" };

const ORDERING: ReadonlySet<BaseOperator> = new Set([">", ">=", "<", "<="]);

// ---------------------------------------------------------------------------------------------
// Operands

function lookupField(fields: RecordFieldMap, name: string): RecordField | undefined {
  // Own properties only: "constructor" or "__proto__" must not reach Object.prototype.
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

/** A json-array field's value as a jsonb array whatever it holds (null or a scalar → []). */
function arraySql(column: PgColumn | SQL): SQL {
  return sql`coalesce(case when jsonb_typeof(${column}::jsonb) = 'array' then ${column}::jsonb end, '[]'::jsonb)`;
}

function resolveOperand(operand: FilterOperand, fields: RecordFieldMap, context: FilterContext): Term {
  switch (operand.kind) {
    case "text":
      // PostgreSQL text cannot hold NUL; refusing it here keeps it from becoming a database error.
      if (operand.value.includes("\u0000")) {
        throw new FilterError("Text values cannot contain the NUL character", operand.position);
      }
      return { kind: "constant", value: { kind: "text", value: operand.value }, label: JSON.stringify(operand.value) };
    case "number":
      return { kind: "constant", value: { kind: "number", literal: numericLiteral(operand.literal) }, label: operand.literal };
    case "bool":
      return { kind: "constant", value: { kind: "bool", value: operand.value }, label: String(operand.value) };
    case "null":
      return { kind: "constant", value: { kind: "null" }, label: "null" };
    case "macro":
      return { kind: "constant", value: macroValue(operand.name, context), label: operand.name };
    case "function":
      throw new FilterError(`Unsupported function: ${operand.name}`, operand.position);
    case "field":
      return resolveField(operand.name, operand.position, fields);
  }
}

function resolveField(name: string, position: number, fields: RecordFieldMap): Term {
  const colon = name.indexOf(":");
  const base = colon === -1 ? name : name.slice(0, colon);
  const modifier = colon === -1 ? null : name.slice(colon + 1);
  const field = lookupField(fields, base);
  if (!field) throw new FilterError(`Invalid filter field: ${base}`, position);
  if (modifier === null) {
    if (field.type === "json-array") return { kind: "array", sql: arraySql(field.column), each: false, label: name };
    return { kind: "expr", sql: sql`${field.column}`, type: field.type, label: name };
  }
  if (modifier === "lower" && field.type === "text") {
    return { kind: "expr", sql: sql`lower(${field.column})`, type: "text", label: name };
  }
  if (modifier === "length" && field.type === "json-array") {
    return { kind: "expr", sql: sql`jsonb_array_length(${arraySql(field.column)})`, type: "number", label: name };
  }
  if (modifier === "each" && field.type === "json-array") {
    return { kind: "array", sql: arraySql(field.column), each: true, label: name };
  }
  throw new FilterError(`Unsupported modifier ":${modifier}" for the ${field.type} field ${base}`, position);
}

// ---------------------------------------------------------------------------------------------
// Comparisons

/** A constant as a typed parameter of `type`, or a FilterError naming the mismatch. */
function typedParam(value: Constant, type: ScalarType, against: string, position: number): SQL {
  const refuse = () =>
    new FilterError(`Invalid value ${describeConstant(value)} for the ${type} field ${against}`, position);
  switch (type) {
    case "text": {
      const text = constantText(value);
      if (text === null) throw refuse();
      return sql`${text}::text`;
    }
    case "number": {
      const literal =
        value.kind === "number"
          ? value.literal
          : value.kind === "text" && NUMBER_TEXT.test(value.value.trim())
            ? numericLiteral(value.value.trim())
            : null;
      if (literal === null) throw refuse();
      // An integer as bigint keeps an integer column's index usable (int = bigint is indexable,
      // int = numeric is not); anything else, or an integer too big for bigint, is numeric.
      return /^-?\d{1,18}$/.test(literal) ? sql`${literal}::bigint` : sql`${literal}::numeric`;
    }
    case "bool": {
      const flag = boolValue(value);
      if (flag === null) throw refuse();
      return sql`${flag}::boolean`;
    }
    case "date": {
      if (value.kind === "date") return sql`${value.value.toISOString()}::timestamptz`;
      if (value.kind === "text") {
        const date = parseFilterDate(value.value);
        if (date) return sql`${date.toISOString()}::timestamptz`;
      }
      throw refuse();
    }
  }
}

function boolValue(value: Constant): boolean | null {
  if (value.kind === "bool") return value.value;
  if (value.kind === "number" && (value.literal === "1" || value.literal === "0")) return value.literal === "1";
  if (value.kind === "text") {
    const text = value.value.trim().toLowerCase();
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
  }
  return null;
}

function describeConstant(value: Constant): string {
  switch (value.kind) {
    case "null":
      return "null";
    case "text":
      return JSON.stringify(value.value.length > 40 ? `${value.value.slice(0, 40)}…` : value.value);
    case "number":
      return value.literal;
    case "bool":
      return String(value.value);
    case "date":
      return JSON.stringify(formatFilterDate(value.value));
  }
}

/** PocketBase's text form of a timestamptz expression. */
function dateText(expression: SQL): SQL {
  return sql`to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS"Z"')`;
}

/** An expression as text for `~`, or null when the type has no sensible text form (bool). */
function asText(expression: SQL, type: ScalarType): SQL | null {
  switch (type) {
    case "text":
      return expression;
    case "number":
      return sql`(${expression})::text`;
    case "date":
      return dateText(expression);
    case "bool":
      return null;
  }
}

function emptyCheck(expression: SQL, type: ScalarType, equal: boolean): SQL {
  if (type === "text") {
    return equal ? sql`(${expression} is null or ${expression} = '')` : sql`(${expression} is not null and ${expression} <> '')`;
  }
  return equal ? sql`(${expression} is null)` : sql`(${expression} is not null)`;
}

function like(subject: SQL, pattern: SQL, negate: boolean): SQL {
  // A null subject contains nothing: `~` is false and `!~` true for it.
  return negate
    ? sql`(${subject} is null or ${subject} not ilike ${pattern} escape '\\')`
    : sql`coalesce(${subject} ilike ${pattern} escape '\\', false)`;
}

/** `expr op constant`, the common case. */
function compareWithConstant(
  expr: { sql: SQL; type: ScalarType; label: string },
  op: BaseOperator,
  value: Constant,
  position: number,
): SQL {
  if (op === "~" || op === "!~") {
    const subject = asText(expr.sql, expr.type);
    const text = constantText(value);
    if (!subject || text === null) {
      throw new FilterError(`Operator ${op} is not supported for the ${expr.type} field ${expr.label}`, position);
    }
    return like(subject, sql`${likePattern(text)}::text`, op === "!~");
  }
  if (expr.type === "bool" && ORDERING.has(op)) {
    throw new FilterError(`Operator ${op} is not supported for the bool field ${expr.label}`, position);
  }
  if (isEmpty(value)) {
    if (op === "=" || op === "!=") return emptyCheck(expr.sql, expr.type, op === "=");
    // Ordering against null is never true (SQL's NULL), and '' only makes sense for text.
    if (value.kind === "null" || expr.type !== "text") return sql`false`;
  }
  // A date field against text that is not a date: compare PocketBase's text form, as its SQLite does.
  if (expr.type === "date" && value.kind === "text" && !parseFilterDate(value.value)) {
    return compareWithConstant({ sql: dateText(expr.sql), type: "text", label: expr.label }, op, value, position);
  }
  // (A date macro against a text field becomes its text form in typedParam, as in PocketBase.)
  const param = typedParam(value, expr.type, expr.label, position);
  // The value is known not to be empty, so `=` can be a plain (indexable) comparison, and `!=`
  // stays null-safe as PocketBase's `IS NOT`.
  if (op === "=") return sql`(${expr.sql} = ${param})`;
  if (op === "!=") return sql`(${expr.sql} is distinct from ${param})`;
  return binary(expr.sql, op, param, expr.type);
}

/** Two expressions of one type (field against field, or constants promoted to parameters). */
function binary(left: SQL, op: BaseOperator, right: SQL, type: ScalarType): SQL {
  switch (op) {
    case "=":
      return type === "text"
        ? sql`(coalesce(${left}, '') = coalesce(${right}, ''))`
        : sql`(${left} is not distinct from ${right})`;
    case "!=":
      return type === "text"
        ? sql`(coalesce(${left}, '') <> coalesce(${right}, ''))`
        : sql`(${left} is distinct from ${right})`;
    case ">":
      return sql`(${left} > ${right})`;
    case ">=":
      return sql`(${left} >= ${right})`;
    case "<":
      return sql`(${left} < ${right})`;
    case "<=":
      return sql`(${left} <= ${right})`;
    case "~":
    case "!~":
      // Only reached for field against field: the right side is a contains match, unescaped (as PocketBase).
      return like(left, sql`('%' || ${right} || '%')`, op === "!~");
  }
}

function compareExpressions(
  left: { sql: SQL; type: ScalarType; label: string },
  op: BaseOperator,
  right: { sql: SQL; type: ScalarType; label: string },
  position: number,
): SQL {
  if (left.type !== right.type) {
    throw new FilterError(`Cannot compare the ${left.type} ${left.label} with the ${right.type} ${right.label}`, position);
  }
  if (op === "~" || op === "!~") {
    const l = asText(left.sql, left.type);
    const r = asText(right.sql, right.type);
    if (!l || !r) throw new FilterError(`Operator ${op} is not supported for the bool field ${left.label}`, position);
    return binary(l, op, r, "text");
  }
  if (left.type === "bool" && ORDERING.has(op)) {
    throw new FilterError(`Operator ${op} is not supported for the bool field ${left.label}`, position);
  }
  return binary(left.sql, op, right.sql, left.type);
}

/** The type two constants are compared as (PocketBase compares them in SQLite; we pick one). */
function constantsType(a: Constant, b: Constant): ScalarType {
  const kinds = new Set([a.kind, b.kind]);
  kinds.delete("null");
  if (kinds.size === 0) return "text";
  if (kinds.size === 1) {
    const [kind] = kinds;
    return kind === "bool" ? "bool" : kind === "number" ? "number" : kind === "date" ? "date" : "text";
  }
  if (kinds.has("date") && kinds.has("text")) return "date";
  return "text";
}

function compareArray(
  array: { sql: SQL; each: boolean; label: string },
  op: BaseOperator,
  any: boolean,
  value: Constant,
  position: number,
): SQL {
  const element = { sql: sql.raw("__item.value"), type: "text" as const, label: `${array.label} item` };
  const elements = sql`jsonb_array_elements_text(${array.sql}) as __item(value)`;
  if (any) {
    const match = compareWithConstant(element, op, value, position);
    return sql`exists (select 1 from ${elements} where ${match})`;
  }
  if (array.each) {
    const match = compareWithConstant(element, op, value, position);
    // Every element, and at least one (PocketBase's :each is false on an empty list).
    return sql`(jsonb_array_length(${array.sql}) > 0 and not exists (select 1 from ${elements} where not coalesce(${match}, false)))`;
  }
  if ((op === "=" || op === "!=") && isEmpty(value)) {
    return op === "=" ? sql`(jsonb_array_length(${array.sql}) = 0)` : sql`(jsonb_array_length(${array.sql}) > 0)`;
  }
  if (op === "~" || op === "!~") {
    // PocketBase matches the stored JSON text; for a contains match any element's text will do.
    const match = compareWithConstant(element, "~", value, position);
    const found = sql`exists (select 1 from ${elements} where ${match})`;
    return op === "~" ? found : sql`(not ${found})`;
  }
  throw new FilterError(
    `Use ?${op} (any item) or ${array.label}:each ${op} (every item) for the multi-valued field ${array.label}`,
    position,
  );
}

function compileComparison(node: Extract<FilterNode, { kind: "comparison" }>, fields: RecordFieldMap, context: FilterContext): SQL {
  let left = resolveOperand(node.left, fields, context);
  let right = resolveOperand(node.right, fields, context);
  const any = node.operator.startsWith("?");
  let op = (any ? node.operator.slice(1) : node.operator) as BaseOperator;
  const position = node.position;

  // Put an array, then any expression, on the left; like is not symmetric, so it cannot be flipped.
  const rank = (term: Term) => (term.kind === "array" ? 2 : term.kind === "expr" ? 1 : 0);
  if (rank(right) > rank(left)) {
    if (op === "~" || op === "!~") {
      if (right.kind === "array" || left.kind !== "constant") {
        throw new FilterError(`The field ${right.label} must be on the left of ${node.operator}`, position);
      }
    } else {
      [left, right] = [right, left];
      op = FLIPPED[op];
    }
  }

  if (left.kind === "array") {
    if (right.kind !== "constant") {
      throw new FilterError(`Cannot compare the multi-valued field ${left.label} with ${right.label}`, position);
    }
    return compareArray(left, op, any, right.value, position);
  }
  if (left.kind === "expr") {
    if (right.kind === "expr") return compareExpressions(left, op, right, position);
    if (right.kind === "constant") return compareWithConstant(left, op, right.value, position);
  }
  if (left.kind === "constant" && right.kind === "expr") {
    // Only `constant ~ field`: the field's text is the contains pattern.
    const leftText = constantText(left.value);
    const rightText = asText(right.sql, right.type);
    if (leftText === null || !rightText) {
      throw new FilterError(`Operator ${op} is not supported between ${left.label} and ${right.label}`, position);
    }
    return binary(sql`${leftText}::text`, op, rightText, "text");
  }
  if (left.kind === "constant" && right.kind === "constant") {
    const type = constantsType(left.value, right.value);
    if (type === "bool" && (ORDERING.has(op) || op === "~" || op === "!~")) {
      throw new FilterError(`Operator ${op} is not supported between ${left.label} and ${right.label}`, position);
    }
    // Promote the left constant to a typed parameter and compare it like a field.
    if (left.value.kind === "null" || (type !== "text" && isEmpty(left.value))) {
      if (op === "=" || op === "!=") {
        return compareWithConstant({ sql: sql`null::${sql.raw(SQL_TYPE[type])}`, type, label: left.label }, op, right.value, position);
      }
      return sql`false`;
    }
    const leftSql = typedParam(left.value, type, right.label, position);
    return compareWithConstant({ sql: leftSql, type, label: left.label }, op, right.value, position);
  }
  throw new FilterError(`Cannot compare ${left.label} with ${right.label}`, position);
}

// ---------------------------------------------------------------------------------------------
// Public API

/** Compiles a parsed filter into a WHERE fragment; throws FilterError for unknown fields or bad values. */
export function compileFilter(node: FilterNode, fields: RecordFieldMap, context: FilterContext): SQL {
  if (node.kind === "comparison") return compileComparison(node, fields, context);
  const parts = node.operands.map((operand) => compileFilter(operand, fields, context));
  return sql`(${sql.join(parts, node.kind === "and" ? sql` and ` : sql` or `)})`;
}

/** Parses and compiles a filter string (see app/lib/record-filter.ts for the grammar). */
export function buildRecordFilter(text: string, fields: RecordFieldMap, context: FilterContext): SQL {
  return compileFilter(parseFilter(text), fields, context);
}

/**
 * ORDER BY terms for a parsed sort, allow-listed like the filter. Nulls sort first ascending,
 * as in PocketBase's SQLite; `@random` is a random order.
 */
export function compileSort(sort: readonly SortField[], fields: RecordFieldMap): SQL[] {
  return sort.map(({ field, dir }) => {
    if (field === "@random") return sql`random()`;
    const spec = lookupField(fields, field);
    if (!spec) throw new FilterError(`Invalid sort field: ${field}`);
    const column = spec.type === "json-array" ? sql`${spec.column}::jsonb` : sql`${spec.column}`;
    return dir === "desc" ? sql`${column} desc nulls last` : sql`${column} asc nulls first`;
  });
}

/** Parses and compiles a sort string such as "-created,numero". */
export function buildRecordSort(text: string, fields: RecordFieldMap): SQL[] {
  return compileSort(parseSort(text), fields);
}

export { FilterError };
