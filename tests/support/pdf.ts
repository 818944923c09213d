// PDFs read back as a shopper's reader shows them, with Mozilla's pdf.js (pdfjs-dist, the reader
// inside Firefox): an npm package, so `npm install && npm test` needs nothing from the system
// (issue 32; it replaces poppler's pdftotext, pdffonts, pdfinfo and pdftoppm). pdf.js parses the
// file on its own, independent of the shop's writer (server/services/pdf-writer.ts).
import { writeFile } from 'node:fs/promises';
import {
  getDocument,
  OPS,
  type PDFDocumentProxy,
  type PDFPageProxy,
} from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Opens the PDF, reads it with `read`, then lets pdf.js go (its worker, fonts and pages). */
async function reading<T>(pdf: Uint8Array, read: (document: PDFDocumentProxy) => Promise<T>) {
  // pdf.js takes the buffer over (detaches it): it reads a copy, so the caller's stays usable.
  const task = getDocument({
    data: new Uint8Array(pdf),
    verbosity: 0,
    fontExtraProperties: true, // the fonts' own names, for pdfFonts
  });
  try {
    return await read(await task.promise);
  } finally {
    await task.destroy();
  }
}

/** How many pages the PDF has (pdfinfo's "Pages:"). */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  return reading(pdf, async (document) => {
    return document.numPages;
  });
}

export type PdfTextMode = 'layout' | 'raw' | 'lines';

/**
 * The PDF's text, pages apart by a form feed as pdftotext prints it:
 * - `layout` (pdftotext -layout): each printed line as one line, left to right, the horizontal
 *   gaps kept as runs of spaces (about one per half the text's height), so columns stay apart;
 * - `lines` (pdftotext's default): the same lines, one space between the words;
 * - `raw` (pdftotext -raw): the words in the order the page's content draws them, a new line
 *   where the next one starts on another line.
 * `page` (1-based) reads only that page (pdftotext -f n -l n).
 */
export async function pdfText(
  pdf: Uint8Array,
  options: { mode?: PdfTextMode; page?: number } = {},
): Promise<string> {
  const mode = options.mode ?? 'lines';
  return reading(pdf, async (document) => {
    const pages: string[] = [];
    const first = options.page ?? 1;
    const last = options.page ?? document.numPages;
    for (let n = first; n <= last; n++) {
      const words = await pageWords(await document.getPage(n));
      pages.push(mode === 'raw' ? rawText(words) : lineText(words, mode === 'layout'));
    }
    return `${pages.join('\f')}\f`;
  });
}

/** A run of letters printed together: where it starts and ends on the page, in points. */
type Word = { text: string; x: number; end: number; y: number; size: number };

type Matrix = [number, number, number, number, number, number];
const times = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

type Glyph = { unicode: string; width: number; isSpace: boolean } | number | null;

/**
 * The page's words, from its drawing operations as pdf.js parses them: each glyph placed by the
 * text state (font and size, character and word spacing, the text and current matrices), as a
 * reader draws it. pdf.js's own getTextContent joins a line's pieces and letter-spaced capitals
 * with made-up single spaces ("U N I T P R I C E"); placing the glyphs keeps the real gaps.
 * Glyphs closer than a fifth of the text's height (after the character spacing) make one word;
 * a space glyph or a wider gap ends it.
 */
async function pageWords(page: PDFPageProxy): Promise<Word[]> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const words: Word[] = [];
  let ctm = IDENTITY;
  const saved: Matrix[] = [];
  let line = IDENTITY; // the text line matrix (Tlm)
  let text = IDENTITY; // the text matrix (Tm)
  let state = { font: '', size: 0, charSpacing: 0, wordSpacing: 0, scale: 1, leading: 0, rise: 0 };
  const states: (typeof state)[] = [];
  let word: Word | undefined;
  let spacingAfter = 0;
  const flush = () => {
    if (word?.text.trim()) words.push({ ...word, text: word.text.trim() });
    word = undefined;
  };
  const move = (tx: number, ty: number) => {
    line = times([1, 0, 0, 1, tx, ty], line);
    text = line;
  };
  const show = (glyphs: Glyph[]) => {
    const font = page.commonObjs.has(state.font) ? page.commonObjs.get(state.font) : null;
    const unitsToText = (font?.fontMatrix?.[0] as number | undefined) ?? 0.001;
    for (const glyph of glyphs) {
      if (glyph === null) continue;
      if (typeof glyph === 'number') {
        text = times([1, 0, 0, 1, (-glyph / 1000) * state.size * state.scale, 0], text);
        continue;
      }
      const where = times(times([1, 0, 0, 1, 0, state.rise], text), ctm);
      const scale = Math.hypot(where[0], where[1]);
      const size = state.size * Math.hypot(where[2], where[3]);
      const advance = glyph.width * unitsToText * state.size;
      const x = where[4];
      const y = where[5];
      const end = x + advance * state.scale * scale;
      const spacing = state.charSpacing + (glyph.isSpace ? state.wordSpacing : 0);
      const joins =
        word &&
        Math.abs(word.y - y) < size / 3 &&
        x - word.end - spacingAfter < size / 5 &&
        x - word.end > -size;
      if (glyph.isSpace || glyph.unicode.trim() === '') flush();
      else if (joins && word) {
        word.text += glyph.unicode;
        word.end = end;
      } else {
        flush();
        word = { text: glyph.unicode, x, end, y, size };
      }
      spacingAfter = state.charSpacing * state.scale * scale;
      text = times([1, 0, 0, 1, (advance + spacing) * state.scale, 0], text);
    }
  };
  fnArray.forEach((fn, i) => {
    const args = argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save:
        saved.push(ctm);
        states.push({ ...state });
        break;
      case OPS.restore:
        ctm = saved.pop() ?? IDENTITY;
        state = states.pop() ?? state;
        break;
      case OPS.transform:
        ctm = times(args as Matrix, ctm);
        break;
      case OPS.beginText:
        line = IDENTITY;
        text = IDENTITY;
        break;
      case OPS.setFont:
        state.font = args[0] as string;
        state.size = args[1] as number;
        break;
      case OPS.setCharSpacing:
        state.charSpacing = args[0] as number;
        break;
      case OPS.setWordSpacing:
        state.wordSpacing = args[0] as number;
        break;
      case OPS.setHScale:
        state.scale = (args[0] as number) / 100;
        break;
      case OPS.setLeading:
        state.leading = args[0] as number;
        break;
      case OPS.setTextRise:
        state.rise = args[0] as number;
        break;
      case OPS.moveText:
        move(args[0] as number, args[1] as number);
        break;
      case OPS.setLeadingMoveText:
        state.leading = -(args[1] as number);
        move(args[0] as number, args[1] as number);
        break;
      case OPS.setTextMatrix:
        line = args as Matrix;
        text = line;
        break;
      case OPS.nextLine:
        move(0, -state.leading);
        break;
      case OPS.showText:
      case OPS.showSpacedText:
        show(args[0] as Glyph[]);
        break;
      case OPS.nextLineShowText:
        move(0, -state.leading);
        show(args[0] as Glyph[]);
        break;
      case OPS.nextLineSetSpacingShowText:
        state.wordSpacing = args[0] as number;
        state.charSpacing = args[1] as number;
        move(0, -state.leading);
        show(args[2] as Glyph[]);
        break;
    }
  });
  flush();
  return words;
}

/** On one printed line: baselines closer than a third of the text's height. */
const sameLine = (a: Word, b: Word) => Math.abs(a.y - b.y) < Math.min(a.size, b.size) / 3;

/** Between two words of one line: in layout, a space per half the text's height of gap. */
function gap(before: Word, after: Word, layout: boolean): string {
  const space = after.x - before.end;
  return layout ? ' '.repeat(Math.max(1, Math.round(space / (after.size / 2)))) : ' ';
}

function lineText(words: Word[], layout: boolean): string {
  const lines: Word[][] = [];
  for (const word of [...words].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const line = lines.find((l) => l[0] && sameLine(l[0], word));
    if (line) line.push(word);
    else lines.push([word]);
  }
  return lines
    .map((line, n) => {
      const sorted = line.sort((a, b) => a.x - b.x);
      // In layout, a wide vertical gap shows as empty lines, as pdftotext prints it: a line
      // more for each line's height and a half of space (a label set close under its name
      // stays on the very next line; the next row of a table does not).
      const above = lines[n - 1]?.[0];
      const first = sorted[0];
      const empty =
        layout && above && first ? Math.round((above.y - first.y) / (above.size * 1.5)) - 1 : 0;
      let text = '\n'.repeat(Math.max(0, empty));
      sorted.forEach((word, i) => {
        const before = sorted[i - 1];
        if (before) text += gap(before, word, layout);
        else if (layout) text += ' '.repeat(Math.max(0, Math.round(word.x / (word.size / 2))));
        text += word.text;
      });
      return `${text}\n`;
    })
    .join('');
}

function rawText(words: Word[]): string {
  let text = '';
  words.forEach((word, i) => {
    const before = words[i - 1];
    if (before) text += sameLine(before, word) ? ' ' : '\n';
    text += word.text;
  });
  return `${text}\n`;
}

export type PdfFont = { name: string; embedded: boolean };

/** The fonts the pages use, as pdffonts lists them: the font's own name (a subset's carries a
 * six-letter tag, `ABCDEF+Manrope-Regular`) and whether its file is inside the PDF. */
export async function pdfFonts(pdf: Uint8Array): Promise<PdfFont[]> {
  return reading(pdf, async (document) => {
    const fonts = new Map<string, PdfFont>();
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      await page.getOperatorList(); // loads the page's fonts into its objects
      for (const [, data] of page.commonObjs as unknown as Iterable<[string, unknown]>) {
        const font = data as { name?: string; missingFile?: boolean };
        if (typeof font?.name !== 'string') continue;
        fonts.set(font.name, { name: font.name, embedded: font.missingFile !== true });
      }
    }
    return [...fonts.values()];
  });
}

/** A page drawn as a PNG to look at (what pdftoppm -png made), at `dpi` dots per inch. */
export async function pdfPicture(
  pdf: Uint8Array,
  path: string,
  options: { page?: number; dpi?: number } = {},
): Promise<void> {
  return reading(pdf, async (document) => {
    const page = await document.getPage(options.page ?? 1);
    const viewport = page.getViewport({ scale: (options.dpi ?? 72) / 72 });
    const factory = document.canvasFactory as {
      create(width: number, height: number): { canvas: { toBuffer(type: string): Buffer } };
    };
    const { canvas } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
    await writeFile(path, canvas.toBuffer('image/png'));
  });
}
