// CSV as RFC 4180 writes it, and as spreadsheets save it (issue 22's import and export). Pure.
// Reads: quoted cells with doubled quotes, commas and line breaks inside them, CRLF or LF, a UTF-8
// byte order mark, a trailing line break. Writes: CRLF, quotes only where a cell needs them.

export type CsvRead =
  | { ok: true; rows: string[][] }
  /** `row` counts records from 1, as a spreadsheet numbers its rows. */
  | { ok: false; row: number; problem: string };

export const CSV_TEXT = {
  unclosedQuote: (row: number) =>
    `Row ${row}: a quoted cell is never closed (a " is missing). Nothing was imported.`,
  textAfterQuote: (row: number) =>
    `Row ${row}: a quoted cell has text after its closing quote; put the whole cell in quotes and double the quotes inside it.`,
} as const;

const BOM = '\uFEFF';

/** The file's records, each a list of cells. An empty file (or a lone line break) has none. */
export function readCsv(text: string): CsvRead {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  /** A record's cells have begun (so a file's last line break does not add an empty record). */
  let started = false;
  while (i < source.length) {
    const char = source[i];
    if (char === '"' && cell === '') {
      // A quoted cell: up to the quote that is not doubled.
      const opened = rows.length + 1;
      i += 1;
      let closed = false;
      while (i < source.length) {
        const inner = source[i];
        if (inner === '"') {
          if (source[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          closed = true;
          i += 1;
          break;
        }
        cell += inner;
        i += 1;
      }
      if (!closed) return { ok: false, row: opened, problem: CSV_TEXT.unclosedQuote(opened) };
      started = true;
      const next = source[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') {
        return { ok: false, row: opened, problem: CSV_TEXT.textAfterQuote(opened) };
      }
      continue;
    }
    if (char === ',') {
      row.push(cell);
      cell = '';
      started = true;
      i += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      started = false;
      i += char === '\r' && source[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += char;
    started = true;
    i += 1;
  }
  if (started) {
    row.push(cell);
    rows.push(row);
  }
  return { ok: true, rows };
}

/** One cell as written: in quotes (its quotes doubled) when it holds a quote, comma or line break. */
function writeCell(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** The records as CSV text: CRLF after every record (the byte order mark is the caller's). */
export function writeCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(writeCell).join(',')}\r\n`).join('');
}
