// A small RFC 4180 reader (quoted fields, doubled quotes, CRLF rows), to check what a spreadsheet
// would see in an export. No imports: the browser tests (tests/e2e) use it too.

/** The rows of a CSV text; a leading UTF-8 BOM is not part of the first field. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i];
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && body[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}
