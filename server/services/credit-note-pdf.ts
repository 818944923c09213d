// The credit note as a PDF (issue 36), on the receipt's paper (./pdf-paper.ts): the shop's
// wordmark and the CRN- number, who, when, where the money went and its reference, the returned
// pieces and the amount refunded.
import { formatUGX } from '#core/money.ts';
import { CREDIT_NOTE_TEXT, type CreditNote, creditNoteDay } from '#core/returns.ts';
import {
  continuationPage,
  eyebrow,
  FOOTER_TOP,
  fact,
  footers,
  HALF,
  MARGIN,
  masthead,
  openPaper,
  PALETTE,
  printable,
  RIGHT,
  rule,
  wrap,
  write,
} from './pdf-paper.ts';

export async function creditNotePdf(note: CreditNote): Promise<Uint8Array> {
  const layout = await openPaper({
    title: `${CREDIT_NOTE_TEXT.title} ${note.number}`,
    author: 'duuka',
    creator: 'duuka',
    created: new Date(note.date),
  });
  masthead(layout, { title: CREDIT_NOTE_TEXT.title, number: note.number });
  layout.y -= 30;
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
