import { describe, expect, it } from 'vitest';
import { CSV_TEXT, readCsv, writeCsv } from './desk-csv.ts';

const rows = (text: string) => {
  const read = readCsv(text);
  if (!read.ok) throw new Error(read.problem);
  return read.rows;
};

describe('readCsv', () => {
  it('reads plain cells, CRLF or LF, and ignores the last line break', () => {
    expect(rows('a,b,c\r\n1,2,3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(rows('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('reads quoted cells with doubled quotes, commas and line breaks inside', () => {
    expect(rows('name,description\r\n"Wrap, ""Ankara""","one\r\ntwo\nthree"\r\n')).toEqual([
      ['name', 'description'],
      ['Wrap, "Ankara"', 'one\r\ntwo\nthree'],
    ]);
  });

  it('keeps empty cells, a quoted empty cell and blank lines as rows', () => {
    expect(rows(',"",x\n\nlast')).toEqual([['', '', 'x'], [''], ['last']]);
  });

  it('drops a UTF-8 byte order mark', () => {
    expect(rows('\uFEFFproduct_id,name\r\n1,Gomesi')).toEqual([
      ['product_id', 'name'],
      ['1', 'Gomesi'],
    ]);
  });

  it('reads an empty file as no rows', () => {
    expect(rows('')).toEqual([]);
    expect(rows('\uFEFF')).toEqual([]);
  });

  it('refuses an unclosed quote, naming the row it opened on', () => {
    expect(readCsv('a,b\r\n1,2\r\n3,"never\r\nclosed,4\r\n')).toEqual({
      ok: false,
      row: 3,
      problem: CSV_TEXT.unclosedQuote(3),
    });
  });

  it('counts a record with line breaks inside as one row', () => {
    const read = readCsv('h\r\n"two\r\nlines"\r\n"open');
    expect(read).toMatchObject({ ok: false, row: 3 });
  });

  it('refuses text after a closing quote', () => {
    expect(readCsv('a\r\n"x"y,2')).toMatchObject({ ok: false, row: 2 });
  });

  it('takes a quote inside an unquoted cell as it is', () => {
    expect(rows('5" heels,x')).toEqual([['5" heels', 'x']]);
  });
});

describe('writeCsv', () => {
  it('writes CRLF records, quoting only the cells that need it', () => {
    expect(
      writeCsv([
        ['a', 'b,c'],
        ['say "hi"', 'one\ntwo'],
      ]),
    ).toBe('a,"b,c"\r\n"say ""hi""","one\ntwo"\r\n');
  });

  it('reads back what it writes', () => {
    const table = [
      ['id', 'text'],
      ['1', 'plain'],
      ['2', 'comma, "quote"\r\nand lines\n'],
      ['3', ''],
      ['4', '"'],
    ];
    expect(rows(writeCsv(table))).toEqual(table);
  });
});
