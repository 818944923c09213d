// The receipt as a PDF, made on the server by the shop's own small writer (DESIGN: Receipts;
// ./pdf-writer.ts, decision 0056). It runs inside the Worker: no Node APIs. The shop's fonts
// (Cormorant Garamond for the wordmark and display, Manrope for text; subsets under
// server/fonts/) are bundled as data by Vite's `?inline` and load on the first receipt only, so
// no other request pays for them.
import { DELIVERY_WORDING, deliveryLine, phoneText } from '#core/delivery-choice.ts';
import { formatUGX } from '#core/money.ts';
import { RECEIPT_TEXT, type Receipt, showsTax } from '#core/receipt.ts';
import { PdfDocument, type PdfFont, type PdfPage, type Rgb } from './pdf-writer.ts';

// A4, in points.
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 50;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FOOTER_TOP = 70;

// The shop's palette (app/styles.css, light theme).
const PALETTE = {
  paper: '#faf7f2',
  paper2: '#f1ebe1',
  ink: '#1d1a16',
  inkSoft: '#5b534a',
  line: '#e3dacb',
  clay: '#8f3f22',
  gold: '#7a5a2e',
  paid: '#2b5e34',
} as const;

// The items table: the name column wraps; the figures are right-aligned at these edges.
const TABLE = {
  namePad: 12,
  nameWidth: 228,
  qtyRight: 292,
  unitRight: 392,
  totalRight: CONTENT_WIDTH - 12,
  size: 10,
  leading: 13.5,
  rowPad: 9,
  /** The variant's label under the name. */
  labelSize: 8.5,
  labelLeading: 11.5,
  labelGap: 2,
};

type Fonts = { display: PdfFont; text: PdfFont; strong: PdfFont };

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
function printable(value: string, font: PdfFont): string {
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
function wrap(value: string, font: PdfFont, size: number, width: number): string[] {
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

export async function receiptPdf(receipt: Receipt): Promise<Uint8Array> {
  const [display, text, strong] = await loadFaces();
  if (!display || !text || !strong) throw new Error('receipt fonts missing');
  const colour = (hex: string): Rgb => [
    Number.parseInt(hex.slice(1, 3), 16) / 255,
    Number.parseInt(hex.slice(3, 5), 16) / 255,
    Number.parseInt(hex.slice(5, 7), 16) / 255,
  ];

  const doc = new PdfDocument({
    title: `${RECEIPT_TEXT.title} ${receipt.receiptNumber}`,
    author: 'duuka',
    creator: 'duuka',
    created: new Date(receipt.orderDate),
  });
  // Under their PostScript names (the files' names): a reader lists them so.
  const fonts: Fonts = {
    display: doc.font(display, 'CormorantGaramond-SemiBold'),
    text: doc.font(text, 'Manrope-Regular'),
    strong: doc.font(strong, 'Manrope-SemiBold'),
  };

  type Draw = {
    x: number;
    y: number;
    size: number;
    font?: PdfFont;
    color?: string;
    tracking?: number;
    align?: 'left' | 'right';
  };
  const widthOf = (s: string, font: PdfFont, size: number, tracking = 0) =>
    font.widthOf(s, size) + tracking * Math.max(0, [...s].length - 1);

  /** Draws one line (already printable); right-aligned text ends at x. */
  function write(page: PdfPage, s: string, o: Draw) {
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
  const eyebrow = (page: PdfPage, s: string, x: number, y: number, align?: 'right') =>
    write(page, s.toUpperCase(), {
      x,
      y,
      size: 7.5,
      font: fonts.strong,
      color: PALETTE.gold,
      tracking: 1.6,
      align,
    });
  const rule = (
    page: PdfPage,
    y: number,
    from = MARGIN,
    to = MARGIN + CONTENT_WIDTH,
    c: string = PALETTE.line,
  ) => page.line([from, y], [to, y], 0.75, colour(c));
  const clean = (s: string, font: PdfFont = fonts.text) => printable(s, font);

  const pages: PdfPage[] = [];
  function newPage(): PdfPage {
    const page = doc.page(PAGE_WIDTH, PAGE_HEIGHT);
    page.rectangle({
      x: 0,
      y: 0,
      width: PAGE_WIDTH,
      height: PAGE_HEIGHT,
      fill: colour(PALETTE.paper),
    });
    pages.push(page);
    return page;
  }

  // First page: the wordmark, the receipt's number and date, who and how.
  let page = newPage();
  let y = PAGE_HEIGHT - MARGIN - 30;
  write(page, 'duuka', { x: MARGIN - 2, y, size: 42, font: fonts.display, tracking: 1 });
  eyebrow(page, 'Kampala · Uganda', MARGIN, y - 20);
  const right = MARGIN + CONTENT_WIDTH;
  eyebrow(page, RECEIPT_TEXT.title, right, y + 14, 'right');
  write(page, clean(receipt.receiptNumber, fonts.strong), {
    x: right,
    y: y - 6,
    size: 15,
    font: fonts.strong,
    align: 'right',
  });
  y -= 46;
  rule(page, y);
  rule(page, y, MARGIN, MARGIN + 56, PALETTE.clay);

  // Customer and payment, side by side.
  y -= 30;
  const column = CONTENT_WIDTH / 2 - 16;
  const half = MARGIN + CONTENT_WIDTH / 2 + 16;
  const info = receipt.customerInfo;
  const address = info.address;
  eyebrow(page, RECEIPT_TEXT.customerInfo, MARGIN, y);
  let left = y - 17;
  for (const line of wrap(clean(info.name, fonts.strong), fonts.strong, 11.5, column)) {
    write(page, line, { x: MARGIN, y: left, size: 11.5, font: fonts.strong });
    left -= 15;
  }
  const place = [address.city, address.country].filter(Boolean).join(', ');
  for (const detail of [info.email, info.phone, address.street, place]) {
    if (!detail) continue;
    for (const line of wrap(clean(detail), fonts.text, 9.5, column)) {
      write(page, line, { x: MARGIN, y: left, size: 9.5, color: PALETTE.inkSoft });
      left -= 13;
    }
  }

  let across = y;
  const fact = (label: string, value: string) => {
    eyebrow(page, label, half, across);
    across -= 17;
    for (const line of wrap(clean(value, fonts.strong), fonts.strong, 11, column)) {
      write(page, line, { x: half, y: across, size: 11, font: fonts.strong });
      across -= 14;
    }
    across -= 12;
  };
  /** PAID or UNPAID as a stamp, with how and the reference under a PAID one. */
  const stamp = (payment: NonNullable<Receipt['payment']>) => {
    const paid = payment.state === 'paid';
    const word = paid ? RECEIPT_TEXT.paid : RECEIPT_TEXT.unpaid;
    const tint = paid ? PALETTE.paid : PALETTE.clay;
    const width = widthOf(word, fonts.strong, 12, 2.4) + 20;
    page.rectangle({
      x: half,
      y: across - 8,
      width,
      height: 24,
      stroke: colour(tint),
      strokeWidth: 1.5,
    });
    write(page, word, {
      x: half + 10,
      y: across,
      size: 12,
      font: fonts.strong,
      color: tint,
      tracking: 2.4,
    });
    across -= 24;
    const detail = paid
      ? [payment.method, payment.reference ? `${RECEIPT_TEXT.reference} ${payment.reference}` : '']
      : [RECEIPT_TEXT.awaitingPayment];
    for (const line of wrap(clean(detail.filter(Boolean).join(' · ')), fonts.text, 9.5, column)) {
      write(page, line, { x: half, y: across, size: 9.5, color: PALETTE.inkSoft });
      across -= 13;
    }
    across -= 14;
  };
  if (receipt.payment) stamp(receipt.payment);
  fact(RECEIPT_TEXT.orderDate, [receipt.date, receipt.time].filter(Boolean).join(', '));
  fact(RECEIPT_TEXT.paymentMethod, receipt.paymentMethod);
  if (receipt.transactionId) fact(RECEIPT_TEXT.transactionId, receipt.transactionId);
  // How it reaches the shopper: the option and where, what happens to a parcel sent upcountry,
  // then the number to call (the rider's, or ours when the parcel arrives) and the notes.
  const delivery = receipt.delivery;
  if (delivery) {
    const wording = DELIVERY_WORDING[delivery.kind];
    fact(RECEIPT_TEXT.delivery, deliveryLine(delivery));
    across += 8;
    const phone = delivery.kind === 'pickup' ? '' : phoneText(delivery.phone);
    const more = [
      wording.promise,
      phone && `${wording.calls} ${phone}`,
      delivery.notes && `${RECEIPT_TEXT.deliveryNotes}: ${delivery.notes}`,
    ];
    for (const detail of more) {
      if (!detail) continue;
      for (const line of wrap(clean(detail), fonts.text, 9.5, column)) {
        write(page, line, { x: half, y: across, size: 9.5, color: PALETTE.inkSoft });
        across -= 13;
      }
    }
    across -= 12;
  }
  y = Math.min(left, across) - 22;

  // An unpaid bank transfer: where to send the money, and the reference to quote.
  const transfer = receipt.payment?.state === 'unpaid' ? receipt.payment.bankTransfer : null;
  if (transfer) {
    const inner = CONTENT_WIDTH - 36;
    const detailLines = (transfer.details ?? RECEIPT_TEXT.bankTransferMissing)
      .split(/\r?\n/)
      .flatMap((line) => (clean(line) ? wrap(clean(line), fonts.text, 10, inner) : []));
    const quote = wrap(
      clean(`${RECEIPT_TEXT.bankTransferQuote} ${transfer.reference}`, fonts.strong),
      fonts.strong,
      10.5,
      inner,
    );
    const height = 30 + detailLines.length * 14 + 8 + quote.length * 14 + 10;
    page.rectangle({
      x: MARGIN,
      y: y - height,
      width: CONTENT_WIDTH,
      height,
      fill: colour(PALETTE.paper2),
      stroke: colour(PALETTE.clay),
      strokeWidth: 0.75,
    });
    let line = y - 20;
    eyebrow(page, RECEIPT_TEXT.bankTransferTitle, MARGIN + 18, line);
    line -= 18;
    for (const text of detailLines) {
      write(page, text, { x: MARGIN + 18, y: line, size: 10 });
      line -= 14;
    }
    line -= 8;
    for (const text of quote) {
      write(page, text, {
        x: MARGIN + 18,
        y: line,
        size: 10.5,
        font: fonts.strong,
        color: PALETTE.clay,
      });
      line -= 14;
    }
    y -= height + 22;
  }

  // The items.
  const tableTop = (p: PdfPage, top: number) => {
    p.rectangle({
      x: MARGIN,
      y: top - 24,
      width: CONTENT_WIDTH,
      height: 24,
      fill: colour(PALETTE.paper2),
    });
    const base = top - 15.5;
    const head = (s: string, x: number, align?: 'right') =>
      write(p, s.toUpperCase(), {
        x: MARGIN + x,
        y: base,
        size: 7.5,
        font: fonts.strong,
        color: PALETTE.inkSoft,
        tracking: 1.2,
        align,
      });
    head(RECEIPT_TEXT.item, TABLE.namePad);
    head(RECEIPT_TEXT.quantity, TABLE.qtyRight, 'right');
    head(RECEIPT_TEXT.unitPrice, TABLE.unitRight, 'right');
    head(RECEIPT_TEXT.lineTotal, TABLE.totalRight, 'right');
    return top - 24;
  };
  /** A continuation page: a smaller masthead, then the table's head again. */
  const nextPage = () => {
    page = newPage();
    const top = PAGE_HEIGHT - MARGIN - 20;
    write(page, 'duuka', { x: MARGIN - 1, y: top, size: 24, font: fonts.display, tracking: 0.6 });
    write(page, clean(receipt.receiptNumber, fonts.strong), {
      x: right,
      y: top + 2,
      size: 10,
      font: fonts.strong,
      align: 'right',
    });
    rule(page, top - 16);
    return top - 40;
  };

  y = tableTop(page, y);
  for (const item of receipt.items) {
    const lines = wrap(clean(item.name), fonts.text, TABLE.size, TABLE.nameWidth);
    // The size and colour ("M · Indigo") under the name, smaller and softer; wrapped the same way.
    const variant = item.variant
      ? wrap(clean(item.variant), fonts.text, TABLE.labelSize, TABLE.nameWidth)
      : [];
    const height =
      lines.length * TABLE.leading +
      variant.length * TABLE.labelLeading +
      (variant.length ? TABLE.labelGap : 0) +
      2 * TABLE.rowPad;
    if (y - height < FOOTER_TOP) {
      const top = nextPage();
      y = tableTop(page, top);
    }
    let baseline = y - TABLE.rowPad - TABLE.size + 1;
    const figure = (s: string, x: number, font = fonts.text) =>
      write(page, s, { x: MARGIN + x, y: baseline, size: TABLE.size, font, align: 'right' });
    figure(String(item.quantity), TABLE.qtyRight);
    figure(formatUGX(item.price), TABLE.unitRight);
    figure(formatUGX(item.price * item.quantity), TABLE.totalRight, fonts.strong);
    for (const line of lines) {
      write(page, line, { x: MARGIN + TABLE.namePad, y: baseline, size: TABLE.size });
      baseline -= TABLE.leading;
    }
    baseline += TABLE.leading - TABLE.labelLeading - TABLE.labelGap;
    for (const line of variant) {
      write(page, line, {
        x: MARGIN + TABLE.namePad,
        y: baseline,
        size: TABLE.labelSize,
        color: PALETTE.inkSoft,
      });
      baseline -= TABLE.labelLeading;
    }
    y -= height;
    rule(page, y);
  }

  // The totals, kept together at the right.
  const figures: [string, string][] = [
    [RECEIPT_TEXT.subtotal, formatUGX(receipt.subtotal)],
    [RECEIPT_TEXT.deliveryFee, formatUGX(receipt.deliveryFee)],
    [
      RECEIPT_TEXT.discount,
      receipt.discount > 0 ? `− ${formatUGX(receipt.discount)}` : formatUGX(0),
    ],
  ];
  if (showsTax(receipt)) figures.push([RECEIPT_TEXT.tax, formatUGX(receipt.tax)]);
  const totalsHeight = figures.length * 19 + 120;
  if (y - totalsHeight < FOOTER_TOP) y = nextPage();
  const labelX = MARGIN + CONTENT_WIDTH - 240;
  const valueX = MARGIN + TABLE.totalRight;
  y -= 24;
  for (const [label, value] of figures) {
    write(page, label, { x: labelX, y, size: 9.5, color: PALETTE.inkSoft });
    write(page, value, { x: valueX, y, size: 10, align: 'right' });
    y -= 19;
  }
  y += 4;
  rule(page, y, labelX, MARGIN + CONTENT_WIDTH, PALETTE.ink);
  y -= 28;
  write(page, RECEIPT_TEXT.total, { x: labelX, y, size: 17, font: fonts.display });
  write(page, formatUGX(receipt.total), {
    x: valueX,
    y,
    size: 16,
    font: fonts.strong,
    color: PALETTE.clay,
    align: 'right',
  });
  y -= 48;
  write(page, RECEIPT_TEXT.thanks, { x: MARGIN, y, size: 15, font: fonts.display });

  // Every page's foot: where the shop is, and which page of how many.
  pages.forEach((p, index) => {
    rule(p, FOOTER_TOP - 24);
    write(p, 'duuka · Kampala, Uganda', {
      x: MARGIN,
      y: FOOTER_TOP - 38,
      size: 7.5,
      color: PALETTE.inkSoft,
    });
    write(p, `${clean(receipt.receiptNumber)} · Page ${index + 1} of ${pages.length}`, {
      x: right,
      y: FOOTER_TOP - 38,
      size: 7.5,
      color: PALETTE.inkSoft,
      align: 'right',
    });
  });

  return doc.save();
}
