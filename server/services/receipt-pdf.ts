// The receipt as a PDF, made on the server on the shop's paper (./pdf-paper.ts; DESIGN: Receipts,
// decision 0056).
import { DELIVERY_WORDING, deliveryLine, phoneText } from '#core/delivery-choice.ts';
import { formatUGX } from '#core/money.ts';
import { offersNote } from '#core/offer-codes.ts';
import {
  RECEIPT_TEXT,
  type Receipt,
  type ReceiptPayment,
  showsTax,
  tinLine,
} from '#core/receipt.ts';
import {
  COLUMN,
  CONTENT_WIDTH,
  colour,
  continuationPage,
  eyebrow,
  FOOTER_TOP,
  fact,
  footers,
  HALF,
  type Layout,
  MARGIN,
  masthead,
  openPaper,
  PALETTE,
  type Pen,
  printable,
  RIGHT,
  rule,
  widthOf,
  wrap,
  write,
} from './pdf-paper.ts';

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

/** A value wrapped into small, softer lines under a fact; gives where the next line goes. */
function softLines(pen: Pen, value: string, x: number, y: number): number {
  const font = pen.fonts.text;
  for (const line of wrap(printable(value, font), font, 9.5, COLUMN)) {
    write(pen, line, { x, y, size: 9.5, color: PALETTE.inkSoft });
    y -= 13;
  }
  return y;
}

/** The first page's head (the paper's masthead), with the seller under the wordmark. */
function receiptHead(layout: Layout, receipt: Receipt) {
  const y = masthead(layout, { title: RECEIPT_TEXT.title, number: receipt.receiptNumber });
  // The seller (issue 34): the shop's address and, when the owner set it, its TIN.
  if (receipt.shop) {
    const seller = [receipt.shop.address, receipt.shop.tin ? tinLine(receipt.shop.tin) : null]
      .filter(Boolean)
      .join(' · ');
    write(layout, printable(seller, layout.fonts.text).slice(0, 90), {
      x: MARGIN,
      y: y - 32,
      size: 7.5,
      color: PALETTE.inkSoft,
    });
  }
}

/** The left column from `top`: who ordered, and where. Gives where the column ends. */
function customerColumn(pen: Pen, receipt: Receipt, top: number): number {
  const { strong } = pen.fonts;
  const info = receipt.customerInfo;
  const address = info.address;
  eyebrow(pen, RECEIPT_TEXT.customerInfo, MARGIN, top);
  let y = top - 17;
  for (const line of wrap(printable(info.name, strong), strong, 11.5, COLUMN)) {
    write(pen, line, { x: MARGIN, y, size: 11.5, font: strong });
    y -= 15;
  }
  const place = [address.city, address.country].filter(Boolean).join(', ');
  for (const detail of [info.email, info.phone, address.street, place]) {
    if (detail) y = softLines(pen, detail, MARGIN, y);
  }
  return y;
}

/** PAID or UNPAID as a stamp, with how and the reference under a PAID one. */
function stamp(pen: Pen, payment: ReceiptPayment, top: number): number {
  const { strong } = pen.fonts;
  const paid = payment.state === 'paid';
  const word = paid ? RECEIPT_TEXT.paid : RECEIPT_TEXT.unpaid;
  const tint = paid ? PALETTE.paid : PALETTE.clay;
  const width = widthOf(word, strong, 12, 2.4) + 20;
  pen.page.rectangle({
    x: HALF,
    y: top - 8,
    width,
    height: 24,
    stroke: colour(tint),
    strokeWidth: 1.5,
  });
  write(pen, word, { x: HALF + 10, y: top, size: 12, font: strong, color: tint, tracking: 2.4 });
  const detail = paid
    ? [payment.method, payment.reference ? `${RECEIPT_TEXT.reference} ${payment.reference}` : '']
    : [RECEIPT_TEXT.awaitingPayment];
  return softLines(pen, detail.filter(Boolean).join(' · '), HALF, top - 24) - 14;
}

/**
 * How it reaches the shopper: the option and where, what happens to a parcel sent upcountry,
 * then the number to call (the rider's, or ours when the parcel arrives) and the notes.
 */
function deliveryFacts(pen: Pen, delivery: NonNullable<Receipt['delivery']>, top: number): number {
  const wording = DELIVERY_WORDING[delivery.kind];
  // The lines under it sit closer to the option than a next fact would.
  let y = fact(pen, HALF, RECEIPT_TEXT.delivery, deliveryLine(delivery), top) + 8;
  const phone = delivery.kind === 'pickup' ? '' : phoneText(delivery.phone);
  const more = [
    wording.promise,
    phone && `${wording.calls} ${phone}`,
    delivery.notes && `${RECEIPT_TEXT.deliveryNotes}: ${delivery.notes}`,
  ];
  for (const detail of more) {
    if (detail) y = softLines(pen, detail, HALF, y);
  }
  return y - 12;
}

/** The right column from `top`: paid or not, when, how, and the delivery. Gives its end. */
function orderColumn(pen: Pen, receipt: Receipt, top: number): number {
  let y = top;
  if (receipt.payment) y = stamp(pen, receipt.payment, y);
  y = fact(
    pen,
    HALF,
    RECEIPT_TEXT.orderDate,
    [receipt.date, receipt.time].filter(Boolean).join(', '),
    y,
  );
  y = fact(pen, HALF, RECEIPT_TEXT.paymentMethod, receipt.paymentMethod, y);
  if (receipt.transactionId)
    y = fact(pen, HALF, RECEIPT_TEXT.transactionId, receipt.transactionId, y);
  if (receipt.delivery) y = deliveryFacts(pen, receipt.delivery, y);
  return y;
}

type BankTransfer = NonNullable<Extract<ReceiptPayment, { state: 'unpaid' }>['bankTransfer']>;

/** An unpaid bank transfer: where to send the money, and the reference to quote, in a box. */
function bankTransferBox(layout: Layout, transfer: BankTransfer) {
  const { fonts } = layout;
  const inner = CONTENT_WIDTH - 36;
  const clean = (s: string) => printable(s, fonts.text);
  const detailLines = (transfer.details ?? RECEIPT_TEXT.bankTransferMissing)
    .split(/\r?\n/)
    .flatMap((line) => (clean(line) ? wrap(clean(line), fonts.text, 10, inner) : []));
  const quote = wrap(
    printable(`${RECEIPT_TEXT.bankTransferQuote} ${transfer.reference}`, fonts.strong),
    fonts.strong,
    10.5,
    inner,
  );
  const height = 30 + detailLines.length * 14 + 8 + quote.length * 14 + 10;
  layout.page.rectangle({
    x: MARGIN,
    y: layout.y - height,
    width: CONTENT_WIDTH,
    height,
    fill: colour(PALETTE.paper2),
    stroke: colour(PALETTE.clay),
    strokeWidth: 0.75,
  });
  let line = layout.y - 20;
  eyebrow(layout, RECEIPT_TEXT.bankTransferTitle, MARGIN + 18, line);
  line -= 18;
  for (const text of detailLines) {
    write(layout, text, { x: MARGIN + 18, y: line, size: 10 });
    line -= 14;
  }
  line -= 8;
  for (const text of quote) {
    write(layout, text, {
      x: MARGIN + 18,
      y: line,
      size: 10.5,
      font: fonts.strong,
      color: PALETTE.clay,
    });
    line -= 14;
  }
  layout.y -= height + 22;
}

/** The items table's head at the cursor; the rows start under it. */
function tableHead(layout: Layout) {
  const top = layout.y;
  layout.page.rectangle({
    x: MARGIN,
    y: top - 24,
    width: CONTENT_WIDTH,
    height: 24,
    fill: colour(PALETTE.paper2),
  });
  const base = top - 15.5;
  const head = (s: string, x: number, align?: 'right') =>
    write(layout, s.toUpperCase(), {
      x: MARGIN + x,
      y: base,
      size: 7.5,
      font: layout.fonts.strong,
      color: PALETTE.inkSoft,
      tracking: 1.2,
      align,
    });
  head(RECEIPT_TEXT.item, TABLE.namePad);
  head(RECEIPT_TEXT.quantity, TABLE.qtyRight, 'right');
  head(RECEIPT_TEXT.unitPrice, TABLE.unitRight, 'right');
  head(RECEIPT_TEXT.lineTotal, TABLE.totalRight, 'right');
  layout.y = top - 24;
}

/**
 * One piece's row: the name wrapped in its column with the size and colour ("M · Indigo") under
 * it, smaller and softer, and the figures at the right. A row that would run into the foot goes
 * onto a continuation page, under the table's head again.
 */
function pieceRow(layout: Layout, receipt: Receipt, item: Receipt['items'][number]) {
  const { fonts } = layout;
  const name = printable(item.name, fonts.text);
  const lines = wrap(name, fonts.text, TABLE.size, TABLE.nameWidth);
  const variant = item.variant
    ? wrap(printable(item.variant, fonts.text), fonts.text, TABLE.labelSize, TABLE.nameWidth)
    : [];
  const height =
    lines.length * TABLE.leading +
    variant.length * TABLE.labelLeading +
    (variant.length ? TABLE.labelGap : 0) +
    2 * TABLE.rowPad;
  if (layout.y - height < FOOTER_TOP) {
    continuationPage(layout, receipt.receiptNumber);
    tableHead(layout);
  }
  let baseline = layout.y - TABLE.rowPad - TABLE.size + 1;
  const figure = (s: string, x: number, font = fonts.text) =>
    write(layout, s, { x: MARGIN + x, y: baseline, size: TABLE.size, font, align: 'right' });
  figure(String(item.quantity), TABLE.qtyRight);
  figure(formatUGX(item.price), TABLE.unitRight);
  figure(formatUGX(item.price * item.quantity), TABLE.totalRight, fonts.strong);
  for (const line of lines) {
    write(layout, line, { x: MARGIN + TABLE.namePad, y: baseline, size: TABLE.size });
    baseline -= TABLE.leading;
  }
  baseline += TABLE.leading - TABLE.labelLeading - TABLE.labelGap;
  for (const line of variant) {
    write(layout, line, {
      x: MARGIN + TABLE.namePad,
      y: baseline,
      size: TABLE.labelSize,
      color: PALETTE.inkSoft,
    });
    baseline -= TABLE.labelLeading;
  }
  layout.y -= height;
  rule(layout.page, layout.y);
}

/** The totals at the right, kept together (on a continuation page if need be), then thanks.
 * Under Discount, in small lines, the offers that gave it (issue 35); the gift card or credit
 * spent has its own line. A receipt from before offers keeps its Discount UGX 0. */
function totals(layout: Layout, receipt: Receipt) {
  const { fonts } = layout;
  const labelX = RIGHT - 240;
  const valueX = MARGIN + TABLE.totalRight;
  const offers = receipt.offers?.length
    ? wrap(printable(offersNote(receipt.offers), fonts.text), fonts.text, 8.5, 150)
    : [];
  const figures: [string, string, string[]][] = [
    [RECEIPT_TEXT.subtotal, formatUGX(receipt.subtotal), []],
    [RECEIPT_TEXT.deliveryFee, formatUGX(receipt.deliveryFee), []],
    [
      RECEIPT_TEXT.discount,
      receipt.discount > 0 ? `− ${formatUGX(receipt.discount)}` : formatUGX(0),
      offers,
    ],
  ];
  if (receipt.credit) {
    figures.push([RECEIPT_TEXT.credit, `− ${formatUGX(receipt.credit)}`, []]);
  }
  if (showsTax(receipt)) figures.push([RECEIPT_TEXT.tax, formatUGX(receipt.tax), []]);
  const totalsHeight = figures.length * 19 + offers.length * 11.5 + 120;
  if (layout.y - totalsHeight < FOOTER_TOP) continuationPage(layout, receipt.receiptNumber);
  let y = layout.y - 24;
  for (const [label, value, notes] of figures) {
    write(layout, label, { x: labelX, y, size: 9.5, color: PALETTE.inkSoft });
    write(layout, value, { x: valueX, y, size: 10, align: 'right' });
    for (const note of notes) {
      y -= 11.5;
      write(layout, note, { x: labelX, y, size: 8.5, color: PALETTE.inkSoft });
    }
    y -= 19;
  }
  y += 4;
  rule(layout.page, y, labelX, RIGHT, PALETTE.ink);
  y -= 28;
  write(layout, RECEIPT_TEXT.total, { x: labelX, y, size: 17, font: fonts.display });
  write(layout, formatUGX(receipt.total), {
    x: valueX,
    y,
    size: 16,
    font: fonts.strong,
    color: PALETTE.clay,
    align: 'right',
  });
  y -= 48;
  write(layout, RECEIPT_TEXT.thanks, { x: MARGIN, y, size: 15, font: fonts.display });
  layout.y = y;
}

export async function receiptPdf(receipt: Receipt): Promise<Uint8Array> {
  const layout = await openPaper({
    title: `${RECEIPT_TEXT.title} ${receipt.receiptNumber}`,
    author: 'duuka',
    creator: 'duuka',
    created: new Date(receipt.orderDate),
  });

  // First page: the wordmark and the receipt's number; who, and paid or not, when and how, side
  // by side; the bank's details to pay by transfer.
  receiptHead(layout, receipt);
  const top = layout.y - 30;
  const left = customerColumn(layout, receipt, top);
  const across = orderColumn(layout, receipt, top);
  layout.y = Math.min(left, across) - 22;
  const transfer = receipt.payment?.state === 'unpaid' ? receipt.payment.bankTransfer : null;
  if (transfer) bankTransferBox(layout, transfer);

  tableHead(layout);
  for (const item of receipt.items) pieceRow(layout, receipt, item);
  totals(layout, receipt);
  footers(layout, receipt.receiptNumber);
  return layout.doc.save();
}
