// The credit note as a PDF (issue 36), on the receipt's paper (./pdf-paper.ts): the shop's
// wordmark and the CRN- number, who, when, where the money went and its reference, the returned
// pieces and the amount refunded.
import { formatUGX } from '#core/money.ts';
import { CREDIT_NOTE_TEXT, type CreditNote, creditNoteDay } from '#core/returns.ts';
import {
  COLUMN,
  continuationPage,
  eyebrow,
  FOOTER_TOP,
  footers,
  HALF,
  type Layout,
  MARGIN,
  openPaper,
  PAGE_HEIGHT,
  PALETTE,
  printable,
  RIGHT,
  rule,
  wrap,
  write,
} from './pdf-paper.ts';

function masthead(layout: Layout, note: CreditNote) {
  const { fonts } = layout;
  let y = PAGE_HEIGHT - MARGIN - 30;
  write(layout, 'duuka', { x: MARGIN - 2, y, size: 42, font: fonts.display, tracking: 1 });
  eyebrow(layout, 'Kampala · Uganda', MARGIN, y - 20);
  eyebrow(layout, CREDIT_NOTE_TEXT.title, RIGHT, y + 14, 'right');
  write(layout, printable(note.number, fonts.strong), {
    x: RIGHT,
    y: y - 6,
    size: 15,
    font: fonts.strong,
    align: 'right',
  });
  y -= 46;
  rule(layout.page, y);
  rule(layout.page, y, MARGIN, MARGIN + 56, PALETTE.clay);
  layout.y = y - 30;
}

/** One labelled fact in a column; gives where the next goes. */
function fact(layout: Layout, x: number, label: string, value: string, top: number): number {
  const { strong } = layout.fonts;
  eyebrow(layout, label, x, top);
  let y = top - 17;
  for (const line of wrap(printable(value, strong), strong, 11, COLUMN)) {
    write(layout, line, { x, y, size: 11, font: strong });
    y -= 14;
  }
  return y - 12;
}

export async function creditNotePdf(note: CreditNote): Promise<Uint8Array> {
  const layout = await openPaper({
    title: `${CREDIT_NOTE_TEXT.title} ${note.number}`,
    author: 'duuka',
    creator: 'duuka',
    created: new Date(note.date),
  });
  masthead(layout, note);
  const top = layout.y;
  let left = fact(layout, MARGIN, CREDIT_NOTE_TEXT.customer, note.customerName, top);
  left = fact(layout, MARGIN, CREDIT_NOTE_TEXT.forOrder, note.orderRef, left);
  let right = fact(layout, HALF, CREDIT_NOTE_TEXT.date, creditNoteDay(note.date), top);
  right = fact(layout, HALF, CREDIT_NOTE_TEXT.method, note.methodLabel, right);
  if (note.reference) right = fact(layout, HALF, CREDIT_NOTE_TEXT.reference, note.reference, right);
  layout.y = Math.min(left, right) - 10;

  eyebrow(layout, CREDIT_NOTE_TEXT.pieces, MARGIN, layout.y);
  layout.y -= 10;
  rule(layout.page, layout.y);
  layout.y -= 18;
  const { text, strong } = layout.fonts;
  if (note.lines.length === 0) {
    write(layout, CREDIT_NOTE_TEXT.noPieces, {
      x: MARGIN,
      y: layout.y,
      size: 10,
      color: PALETTE.inkSoft,
    });
    layout.y -= 20;
  }
  for (const line of note.lines) {
    if (layout.y < FOOTER_TOP + 60) continuationPage(layout, note.number);
    const name = [line.name, line.variantLabel].filter(Boolean).join(' · ');
    write(layout, wrap(printable(`${line.quantity} × ${name}`, text), text, 10, 360)[0] ?? '', {
      x: MARGIN,
      y: layout.y,
      size: 10,
    });
    write(layout, printable(formatUGX(line.price * line.quantity), text), {
      x: RIGHT,
      y: layout.y,
      size: 10,
      align: 'right',
    });
    layout.y -= 20;
  }
  rule(layout.page, layout.y + 6);
  layout.y -= 16;
  write(layout, CREDIT_NOTE_TEXT.total, { x: MARGIN, y: layout.y, size: 12, font: strong });
  write(layout, printable(formatUGX(note.amount), strong), {
    x: RIGHT,
    y: layout.y,
    size: 15,
    font: strong,
    color: PALETTE.clay,
    align: 'right',
  });
  footers(layout, note.number);
  return layout.doc.save();
}
