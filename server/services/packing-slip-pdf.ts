// The packing slip and delivery note (issue 34), on the shop's paper as the receipt is
// (./pdf-paper.ts): who it goes to and where, the number to call, the pieces to pack with their
// SKU and size, and what the rider collects at the door. No prices but the one to collect: it
// travels in the parcel.
import { DELIVERY_WORDING, deliveryLine, phoneText } from '#core/delivery-choice.ts';
import { leftToCollect, PAPERWORK_TEXT, type PackingSlip } from '#core/desk-paperwork.ts';
import { formatUGX } from '#core/money.ts';
import { formatLongDate, formatTime, paymentMethodLabel, sourceLabel } from '#core/order-rules.ts';
import {
  COLUMN,
  CONTENT_WIDTH,
  colour,
  continuationPage,
  eyebrow,
  FOOTER_TOP,
  footers,
  HALF,
  type Layout,
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

/** The pieces' table: a box to tick, the name, size and colour, SKU, and how many. */
const TABLE = {
  tick: 10,
  name: 30,
  nameWidth: 190,
  size: 232,
  sizeWidth: 104,
  sku: 348,
  skuWidth: 110,
  qty: CONTENT_WIDTH - 12,
};
const ROW = { size: 10, leading: 13.5, pad: 9 };

/** The order's short reference, as the desk shows it. */
const reference = (slip: PackingSlip) => slip.orderId.slice(0, 8).toUpperCase();

/** Lines of a value in a column, from `y` down; gives where the next line goes. */
function lines(layout: Layout, value: string, x: number, y: number, strong = false): number {
  const font = strong ? layout.fonts.strong : layout.fonts.text;
  const size = strong ? 12 : 10;
  for (const line of wrap(printable(value, font), font, size, COLUMN)) {
    write(layout, line, { x, y, size, font, color: strong ? PALETTE.ink : PALETTE.inkSoft });
    y -= strong ? 16 : 14;
  }
  return y;
}

/** Left: the customer, the number to call, and where (or that she collects at the shop). */
function whereColumn(layout: Layout, slip: PackingSlip, top: number): number {
  const { delivery } = slip;
  const pickup = delivery.kind === 'pickup';
  eyebrow(layout, pickup ? PAPERWORK_TEXT.collects : PAPERWORK_TEXT.deliverTo, MARGIN, top);
  let y = lines(layout, slip.customerName, MARGIN, top - 18, true);
  const phone = phoneText(slip.phone);
  if (phone) {
    write(layout, phone, { x: MARGIN, y, size: 13, font: layout.fonts.strong });
    y -= 18;
  }
  y = lines(layout, deliveryLine(delivery), MARGIN, y);
  if (!pickup) y = lines(layout, DELIVERY_WORDING[delivery.kind].promise, MARGIN, y);
  if (delivery.notes) y = lines(layout, `${PAPERWORK_TEXT.notes}: ${delivery.notes}`, MARGIN, y);
  return y;
}

/** One fact of the right column: its label, then its value. */
function fact(layout: Layout, label: string, value: string, top: number): number {
  eyebrow(layout, label, HALF, top);
  return lines(layout, value, HALF, top - 17, true) - 10;
}

/** Right: the order, and the money at the door in a box the rider cannot miss. */
function moneyColumn(layout: Layout, slip: PackingSlip, top: number): number {
  const placed = new Date(slip.placedAt);
  let y = fact(
    layout,
    PAPERWORK_TEXT.placed,
    `${formatLongDate(placed)}, ${formatTime(placed)}`,
    top,
  );
  if (slip.source !== 'web') y = fact(layout, PAPERWORK_TEXT.source, sourceLabel(slip.source), y);
  const rider = [slip.delivery.riderName, phoneText(slip.delivery.riderPhone)].filter(Boolean);
  if (rider.length) y = fact(layout, PAPERWORK_TEXT.rider, rider.join(' · '), y);
  const collect = leftToCollect(slip);
  const method = paymentMethodLabel(slip.paymentMethod);
  const words =
    collect === null
      ? PAPERWORK_TEXT.notPaid(method)
      : collect === 0
        ? PAPERWORK_TEXT.paidNothing
        : PAPERWORK_TEXT.collect;
  const tint = collect === 0 ? PALETTE.paid : PALETTE.clay;
  const height = collect ? 58 : 40;
  layout.page.rectangle({
    x: HALF,
    y: y - height + 12,
    width: COLUMN,
    height,
    stroke: colour(tint),
    strokeWidth: 1.5,
  });
  eyebrow(layout, PAPERWORK_TEXT.payment, HALF + 12, y - 4);
  let inside = y - 20;
  for (const line of wrap(
    printable(words, layout.fonts.strong),
    layout.fonts.strong,
    10,
    COLUMN - 24,
  )) {
    write(layout, line, {
      x: HALF + 12,
      y: inside,
      size: 10,
      font: layout.fonts.strong,
      color: tint,
    });
    inside -= 13;
  }
  if (collect) {
    write(layout, formatUGX(collect), {
      x: HALF + 12,
      y: inside - 6,
      size: 16,
      font: layout.fonts.strong,
      color: tint,
    });
  }
  return y - height - 6;
}

function tableHead(layout: Layout) {
  const top = layout.y;
  layout.page.rectangle({
    x: MARGIN,
    y: top - 24,
    width: CONTENT_WIDTH,
    height: 24,
    fill: colour(PALETTE.paper2),
  });
  const head = (s: string, x: number, align?: 'right') =>
    write(layout, s.toUpperCase(), {
      x: MARGIN + x,
      y: top - 15.5,
      size: 7.5,
      font: layout.fonts.strong,
      color: PALETTE.inkSoft,
      tracking: 1.2,
      align,
    });
  head(PAPERWORK_TEXT.piece, TABLE.name);
  head(PAPERWORK_TEXT.size, TABLE.size);
  head(PAPERWORK_TEXT.sku, TABLE.sku);
  head(PAPERWORK_TEXT.quantity, TABLE.qty, 'right');
  layout.y = top - 24;
}

/** A piece's row: a box to tick when packed, the name, size and colour, SKU and how many. */
function pieceRow(layout: Layout, slip: PackingSlip, piece: PackingSlip['pieces'][number]) {
  const { fonts } = layout;
  const name = wrap(printable(piece.name, fonts.text), fonts.text, ROW.size, TABLE.nameWidth);
  const size = wrap(printable(piece.variant, fonts.text), fonts.text, ROW.size, TABLE.sizeWidth);
  const sku = wrap(
    printable(piece.sku ?? PAPERWORK_TEXT.noSku, fonts.text),
    fonts.text,
    9,
    TABLE.skuWidth,
  );
  const height = Math.max(name.length, size.length, sku.length) * ROW.leading + 2 * ROW.pad;
  if (layout.y - height < FOOTER_TOP) {
    continuationPage(layout, reference(slip));
    tableHead(layout);
  }
  const first = layout.y - ROW.pad - ROW.size + 1;
  layout.page.rectangle({
    x: MARGIN + TABLE.tick,
    y: first - 1.5,
    width: 10,
    height: 10,
    stroke: colour(PALETTE.ink),
    strokeWidth: 0.75,
  });
  name.forEach((line, at) => {
    write(layout, line, { x: MARGIN + TABLE.name, y: first - at * ROW.leading, size: ROW.size });
  });
  size.forEach((line, at) => {
    const y = first - at * ROW.leading;
    write(layout, line, { x: MARGIN + TABLE.size, y, size: ROW.size, color: PALETTE.inkSoft });
  });
  sku.forEach((line, at) => {
    const y = first - at * ROW.leading;
    write(layout, line, { x: MARGIN + TABLE.sku, y, size: 9, color: PALETTE.inkSoft });
  });

  write(layout, String(piece.quantity), {
    x: MARGIN + TABLE.qty,
    y: first,
    size: 11,
    font: fonts.strong,
    align: 'right',
  });
  layout.y -= height;
  rule(layout.page, layout.y);
}

/** The count of pieces, then a line each for who packed it and who received it. */
function signatures(layout: Layout, slip: PackingSlip) {
  if (layout.y - 110 < FOOTER_TOP) continuationPage(layout, reference(slip));
  const count = slip.pieces.reduce((sum, piece) => sum + piece.quantity, 0);
  let y = layout.y - 22;
  write(layout, PAPERWORK_TEXT.pieces(count), {
    x: RIGHT,
    y,
    size: 11,
    font: layout.fonts.strong,
    align: 'right',
  });
  y -= 54;
  for (const [label, x] of [
    [PAPERWORK_TEXT.packedBy, MARGIN],
    [PAPERWORK_TEXT.receivedBy, HALF],
  ] as const) {
    rule(layout.page, y, x, x + COLUMN, PALETTE.ink);
    eyebrow(layout, label, x, y - 14);
  }
  layout.y = y - 14;
}

export async function packingSlipPdf(slip: PackingSlip): Promise<Uint8Array> {
  const layout = await openPaper({
    title: `${PAPERWORK_TEXT.slipTitle} ${reference(slip)}`,
    author: 'duuka',
    creator: 'duuka',
    created: new Date(slip.placedAt),
  });
  masthead(layout, {
    title: PAPERWORK_TEXT.deliveryNote,
    number: reference(slip),
    numberSize: 18,
  });
  const top = layout.y - 30;
  const left = whereColumn(layout, slip, top);
  const right = moneyColumn(layout, slip, top);
  layout.y = Math.min(left, right) - 22;
  tableHead(layout);
  for (const piece of slip.pieces) pieceRow(layout, slip, piece);
  signatures(layout, slip);
  footers(layout, `${PAPERWORK_TEXT.slipTitle} ${reference(slip)}`);
  return layout.doc.save();
}
