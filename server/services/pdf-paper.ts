// The shop's paper for its PDFs (the receipt, the packing slip): A4 in the shop's palette and
// fonts, and the few ways they draw on it, over the shop's own small writer (./pdf-writer.ts,
// decision 0056). It runs inside the Worker: no Node APIs. The fonts (Cormorant Garamond for the
// wordmark and display, Manrope for text; subsets under server/fonts/) are bundled as data by
// Vite's `?inline` and load on the first PDF only, so no other request pays for them.
import { PdfDocument, type PdfFont, type PdfInfo, type PdfPage, type Rgb } from './pdf-writer.ts';

// A4, in points.
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGIN = 50;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const FOOTER_TOP = 70;
/** A first page's two columns under its head: their width, and the right one's x. */
export const COLUMN = CONTENT_WIDTH / 2 - 16;
export const HALF = MARGIN + CONTENT_WIDTH / 2 + 16;
export const RIGHT = MARGIN + CONTENT_WIDTH;

// The shop's palette (app/styles.css, light theme).
export const PALETTE = {
  paper: '#faf7f2',
  paper2: '#f1ebe1',
  ink: '#1d1a16',
  inkSoft: '#5b534a',
  line: '#e3dacb',
  clay: '#8f3f22',
  gold: '#7a5a2e',
  paid: '#2b5e34',
} as const;

export type Fonts = { display: PdfFont; text: PdfFont; strong: PdfFont };

function fromDataUrl(url: string): Uint8Array {
  const binary = atob(url.slice(url.indexOf(',') + 1));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

let loading: Promise<Uint8Array[]> | undefined;

/** The font files (display, text, strong), loaded once per Worker instance. */
function loadFaces() {
  loading ??= Promise.all([
    import('../fonts/CormorantGaramond-SemiBold.ttf?inline'),
    import('../fonts/Manrope-Regular.ttf?inline'),
    import('../fonts/Manrope-SemiBold.ttf?inline'),
  ]).then((faces) => faces.map((face) => fromDataUrl(face.default)));
  return loading;
}

/**
 * Composed letters (NFC: the fonts carry no mark positioning), control characters out, runs of
 * white space as one space, letters the font lacks as '?' (and accents it lacks left out).
 */
export function printable(value: string, font: PdfFont): string {
  let out = '';
  for (const char of value
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()) {
    const code = char.codePointAt(0) ?? 0;
    if (font.has(code)) out += char;
    else if (!/\p{M}/u.test(char)) out += '?';
  }
  return out;
}

/** Lines no wider than `width`; a word longer than a line is broken between letters. */
export function wrap(value: string, font: PdfFont, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOf(s, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const char of word) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** The shop's hex colours as the writer takes them. */
export const colour = (hex: string): Rgb => [
  Number.parseInt(hex.slice(1, 3), 16) / 255,
  Number.parseInt(hex.slice(3, 5), 16) / 255,
  Number.parseInt(hex.slice(5, 7), 16) / 255,
];

export const widthOf = (s: string, font: PdfFont, size: number, tracking = 0) =>
  font.widthOf(s, size) + tracking * Math.max(0, [...s].length - 1);

/** A page to draw on, with the document's fonts (the text font is each line's default). */
export type Pen = { page: PdfPage; fonts: Fonts };

/**
 * What the document's parts share as they draw one after another: the pages so far, the page being
 * drawn, and the cursor on it (from the page's foot up, in points, as PDF counts).
 */
export type Layout = Pen & { doc: PdfDocument; pages: PdfPage[]; y: number };

type Draw = {
  x: number;
  y: number;
  size: number;
  font?: PdfFont;
  color?: string;
  tracking?: number;
  align?: 'left' | 'right';
};

/** Draws one line (already printable); right-aligned text ends at x. */
export function write({ page, fonts }: Pen, s: string, o: Draw) {
  const font = o.font ?? fonts.text;
  const tracking = o.tracking ?? 0;
  const x = o.align === 'right' ? o.x - widthOf(s, font, o.size, tracking) : o.x;
  page.text(s, {
    x,
    y: o.y,
    size: o.size,
    font,
    color: colour(o.color ?? PALETTE.ink),
    tracking,
  });
}

/** Small capitals in gold, like the shop's eyebrows. */
export function eyebrow(pen: Pen, s: string, x: number, y: number, align?: 'right') {
  write(pen, s.toUpperCase(), {
    x,
    y,
    size: 7.5,
    font: pen.fonts.strong,
    color: PALETTE.gold,
    tracking: 1.6,
    align,
  });
}

export function rule(
  page: PdfPage,
  y: number,
  from = MARGIN,
  to = RIGHT,
  c: string = PALETTE.line,
) {
  page.line([from, y], [to, y], 0.75, colour(c));
}

/**
 * The first page's head: the wordmark, and the document's title and number at the right, over a
 * rule. Leaves the cursor at the rule and answers where the wordmark's line is (for a line under it).
 */
export function masthead(
  layout: Layout,
  document: { title: string; number: string; numberSize?: number },
): number {
  const { fonts } = layout;
  const y = PAGE_HEIGHT - MARGIN - 30;
  write(layout, 'duuka', { x: MARGIN - 2, y, size: 42, font: fonts.display, tracking: 1 });
  eyebrow(layout, 'Kampala · Uganda', MARGIN, y - 20);
  eyebrow(layout, document.title, RIGHT, y + 14, 'right');
  write(layout, printable(document.number, fonts.strong), {
    x: RIGHT,
    y: y - 6,
    size: document.numberSize ?? 15,
    font: fonts.strong,
    align: 'right',
  });
  rule(layout.page, y - 46);
  rule(layout.page, y - 46, MARGIN, MARGIN + 56, PALETTE.clay);
  layout.y = y - 46;
  return y;
}

/** One labelled fact in a column of the head (a date, a reference): gives where the next goes. */
export function fact(pen: Pen, x: number, label: string, value: string, top: number): number {
  const { strong } = pen.fonts;
  eyebrow(pen, label, x, top);
  let y = top - 17;
  for (const line of wrap(printable(value, strong), strong, 11, COLUMN)) {
    write(pen, line, { x, y, size: 11, font: strong });
    y -= 14;
  }
  return y - 12;
}

/** A page on the shop's paper. */
export function paperPage(doc: PdfDocument): PdfPage {
  const page = doc.page(PAGE_WIDTH, PAGE_HEIGHT);
  page.rectangle({
    x: 0,
    y: 0,
    width: PAGE_WIDTH,
    height: PAGE_HEIGHT,
    fill: colour(PALETTE.paper),
  });
  return page;
}

/** A new document on the shop's paper: its fonts loaded, its first page, the cursor at its top. */
export async function openPaper(info: PdfInfo): Promise<Layout> {
  const [display, text, strong] = await loadFaces();
  if (!display || !text || !strong) throw new Error('PDF fonts missing');
  const doc = new PdfDocument(info);
  // Under their PostScript names (the files' names): a reader lists them so.
  const fonts: Fonts = {
    display: doc.font(display, 'CormorantGaramond-SemiBold'),
    text: doc.font(text, 'Manrope-Regular'),
    strong: doc.font(strong, 'Manrope-SemiBold'),
  };
  const first = paperPage(doc);
  return { doc, fonts, pages: [first], page: first, y: 0 };
}

/** Every page's foot: where the shop is, and which page of how many. */
export function footers({ pages, fonts }: Layout, documentNumber: string) {
  const number = printable(documentNumber, fonts.text);
  pages.forEach((page, index) => {
    const pen = { page, fonts };
    rule(page, FOOTER_TOP - 24);
    write(pen, 'duuka · Kampala, Uganda', {
      x: MARGIN,
      y: FOOTER_TOP - 38,
      size: 7.5,
      color: PALETTE.inkSoft,
    });
    write(pen, `${number} · Page ${index + 1} of ${pages.length}`, {
      x: RIGHT,
      y: FOOTER_TOP - 38,
      size: 7.5,
      color: PALETTE.inkSoft,
      align: 'right',
    });
  });
}

/** A continuation page: a smaller masthead; the cursor under it. */
export function continuationPage(layout: Layout, documentNumber: string) {
  layout.page = paperPage(layout.doc);
  layout.pages.push(layout.page);
  const { fonts } = layout;
  const top = PAGE_HEIGHT - MARGIN - 20;
  write(layout, 'duuka', { x: MARGIN - 1, y: top, size: 24, font: fonts.display, tracking: 0.6 });
  write(layout, printable(documentNumber, fonts.strong), {
    x: RIGHT,
    y: top + 2,
    size: 10,
    font: fonts.strong,
    align: 'right',
  });
  rule(layout.page, top - 16);
  layout.y = top - 40;
}
