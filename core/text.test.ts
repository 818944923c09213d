import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { listingSearch, NO_SUCH_CATEGORY, readSearchTerm, shopSearch } from './catalogue.ts';
import { contactInput } from './contact-rules.ts';
import { cleanSearchText, invisibleCharacters, typedLine, typedLines } from './text.ts';

const line = v.pipe(v.string(), typedLine(invisibleCharacters('Name')));
const lines = v.pipe(v.string(), typedLines(invisibleCharacters('Address')));
const problem = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? null : result.issues[0].message;
};

describe('text a person typed', () => {
  it('refuses NUL, other controls and half characters in one line, naming the field', () => {
    for (const text of ['a\u0000b', 'a\u0007', 'a\nb', 'a\tb', '\u007f', '\u0085', 'x\ud800']) {
      expect(problem(line, text)).toBe('Name cannot contain invisible control characters.');
    }
    for (const text of ['Grace Atim', 'Nakato 😀', 'Ssemwogerere-Kato', '']) {
      expect(problem(line, text)).toBeNull();
    }
  });

  it('lets tabs and line breaks through where text may span lines', () => {
    expect(problem(lines, 'Plot 4,\r\nKampala Road\tKampala')).toBeNull();
    expect(problem(lines, 'Plot 4\u0000')).toBe(
      'Address cannot contain invisible control characters.',
    );
  });

  it('reads a search term with invisible characters as spaces', () => {
    expect(cleanSearchText(' Kitenge\u0000\u0001Wrap\n')).toBe('Kitenge Wrap');
    expect(cleanSearchText('\u0000')).toBe('');
    expect(readSearchTerm(`${'x'.repeat(99)}😀`)).toBe('x'.repeat(99));
    expect(readSearchTerm(123)).toBe('123');
    expect(readSearchTerm(null)).toBe('');
    expect(readSearchTerm({ a: 1 })).toBe('');
  });

  it('checks the contact form in the browser exactly as the server does', () => {
    const form = { name: 'Grace', email: ' Grace@Example.UG ', phone: '', comment: 'Hi\u0000' };
    expect(problem(contactInput, form)).toBe(
      'Message cannot contain invisible control characters.',
    );
    expect(v.parse(contactInput, { ...form, comment: '' })).toEqual({
      name: 'Grace',
      email: 'grace@example.ug',
      phone: null,
      comment: null,
    });
  });
});

describe('catalogue addresses', () => {
  it('reads bad /products params as the nearest sensible page', () => {
    expect(v.parse(listingSearch, {})).toEqual({});
    expect(v.parse(listingSearch, { category: 3, group: 'new', page: 2 })).toEqual({
      category: 3,
      group: 'new',
      page: 2,
    });
    for (const category of ['abc', 0, -1, 1.5, 2 ** 31, null]) {
      expect(v.parse(listingSearch, { category }).category).toBe(NO_SUCH_CATEGORY);
    }
    for (const page of [0, 'abc', -1, 1.5, 99_999]) {
      expect(v.parse(listingSearch, { page }).page).toBeUndefined();
    }
    expect(v.parse(listingSearch, { group: 'foo' }).group).toBeUndefined();
    expect(v.parse(shopSearch, { q: 'a\u0000b', page: 'abc' })).toEqual({
      q: 'a b',
      page: undefined,
    });
  });
});
