import { formatUGX } from './money.ts';
import { receiptNumber, statusLabel } from './order-rules.ts';
import type { ReturnWindows } from './return-windows.ts';
import {
  type Handover,
  kampalaDate,
  orderWindows,
  REFUND_GOES_TO,
  RETURN_TEXT,
  type RefundMethod,
  type RefundState,
  windowLastDay,
} from './returns.ts';

/** The shop's facts about returns and exchanges, with its own windows. */
export function returnFacts(windows: ReturnWindows): string[] {
  return [
    `Returns within ${windows.returnDays} days for unworn items with tags.`,
    `Exchanges within ${windows.exchangeDays} days with the receipt.`,
  ];
}

/** The assistant's instructions about returns and refunds; `windows` null: they are unknown. */
export function returnInstructions(windows: ReturnWindows | null): string {
  const policy = windows
    ? `Returns and exchanges, from the shop's settings (state only these numbers): ${returnFacts(windows).join(' ')} The days count from the day the order was delivered or collected; pieces the shop marks non-returnable (earrings, underwear) cannot be returned or exchanged.`
    : 'Returns and exchanges: you do not know the shop’s return and exchange windows right now. Never state a number of days; call myReturns.';
  return [
    policy,
    'For "Can I return this?", an exchange, or "Where is my refund?" call myReturns and answer only from it: which of the shopper’s own pieces can still be returned or exchanged and until when, and each return’s and refund’s status. She asks for a return on the order’s page under My Orders. Never promise a return, an exchange, a refund or a date the tool does not give.',
  ].join('\n');
}

/** One of her orders with its pieces, as myReturns reads them. */
export type OrderForReturn = {
  id: string;
  status: string;
  deliveredAt: Date | null;
  lines: {
    name: string;
    variantLabel: string;
    quantity: number;
    /** Pieces already in a return not refused. */
    returned: number;
    returnable: boolean;
  }[];
};

export type RefundForShopper = {
  orderId: string | null;
  method: RefundMethod;
  amount: number;
  status: RefundState;
  reference: string | null;
  settledAt: Date | null;
};

/** One of her returns, as myReturns reads it. */
export type ReturnForShopper = {
  orderId: string;
  status: string;
  resolution: string;
  handover: Handover | null;
  pickupFee: number;
  staffReason: string | null;
  exchangeStatus: string | null;
  amount: number;
  createdAt: Date;
  lines: { name: string; variantLabel: string; quantity: number; exchangeLabel: string | null }[];
  refunds: RefundForShopper[];
};

const piece = (line: { name: string; variantLabel: string; quantity: number }) =>
  `${line.quantity} x ${line.name}${line.variantLabel ? ` (${line.variantLabel})` : ''}`;

/** A moment's Kampala day, as a window's days are told. */
const dayOf = (at: Date) => kampalaDate(windowLastDay(at, 0));

/** Whether her order's pieces can still go back, and until when. */
export function orderReturnLine(order: OrderForReturn, windows: ReturnWindows, now: Date): string {
  const head = `Order ${receiptNumber(order.id)}`;
  const dates = orderWindows(order, windows, now);
  if (!dates.at || !dates.returnLast || !dates.exchangeLast) {
    return `${head} (${statusLabel(order.status)}): ${RETURN_TEXT.notDelivered} Once it is, its pieces can be returned within ${windows.returnDays} days and exchanged within ${windows.exchangeDays} days.`;
  }
  const returnLast = kampalaDate(dates.returnLast);
  const exchangeLast = kampalaDate(dates.exchangeLast);
  const canReturn = dates.returnOpen;
  const canExchange = dates.exchangeOpen;
  const said = [`${head}, delivered on ${dayOf(dates.at)}.`];
  const open = order.lines.filter((line) => line.returnable && line.returned < line.quantity);
  if (!canReturn) {
    said.push(RETURN_TEXT.windowClosed(returnLast));
  } else if (open.length > 0) {
    const until = canExchange
      ? `can be returned until ${returnLast} and exchanged until ${exchangeLast}`
      : `can be returned until ${returnLast} (for a refund; the exchange window closed on ${exchangeLast})`;
    const pieces = open.map((line) => piece({ ...line, quantity: line.quantity - line.returned }));
    said.push(`${pieces.join(', ')} ${until}. Ask for it on the order's page under My Orders.`);
  }
  for (const line of order.lines) {
    if (!line.returnable) said.push(RETURN_TEXT.notReturnable(line.name));
    else if (line.returned >= line.quantity) said.push(RETURN_TEXT.tooMany(line.name, 0));
  }
  return said.join(' ');
}

const HANDOVER_WORDS: Record<Handover, (fee: number) => string> = {
  pickup: (fee) => `our rider collects it${fee > 0 ? ` (pickup fee ${formatUGX(fee)})` : ''}`,
  drop_off: () => 'you bring it to the shop',
};

const EXCHANGE_WORDS: Record<string, string> = {
  preparing: 'being prepared',
  out_for_delivery: 'on its way',
  delivered: 'delivered',
};

/** What her return has come to, in one sentence. */
function returnState(found: ReturnForShopper): string {
  switch (found.status) {
    case 'requested':
      return 'Requested: waiting for the shop to approve it.';
    case 'approved':
      return `Approved: ${found.handover ? HANDOVER_WORDS[found.handover](found.pickupFee) : 'the shop will say how it comes back'}.`;
    case 'received':
      return 'Received by the shop.';
    case 'refunded':
      return 'Refunded.';
    case 'exchanged': {
      const label = found.lines.flatMap((line) => line.exchangeLabel ?? []).join(', ');
      const where = EXCHANGE_WORDS[found.exchangeStatus ?? ''] ?? 'on its way';
      return `Exchanged: the new piece${label ? ` (${label})` : ''} is ${where}.`;
    }
    case 'refused':
      return `Refused${found.staffReason ? `: ${found.staffReason}` : '.'}`;
    default:
      return `${found.status}.`;
  }
}

/** A refund's state, with where the money goes and what the provider gave back. */
function refundLine(refund: RefundForShopper): string {
  const head = `${formatUGX(refund.amount)} to ${REFUND_GOES_TO[refund.method]}`;
  switch (refund.status) {
    case 'requested':
      return `${head}: being prepared, not sent yet.`;
    case 'sent':
      return `${head}: sent, waiting for the confirmation.`;
    case 'succeeded':
      return `${head}: paid${refund.settledAt ? ` on ${dayOf(refund.settledAt)}` : ''}${refund.reference ? ` (reference ${refund.reference})` : ''}.`;
    case 'failed':
      return `${head}: it did not go through; the shop has been told and sends it again.`;
  }
}

/** Her return: which pieces, what she asked for, where it stands, and its refunds. */
export function returnLine(found: ReturnForShopper): string {
  const said = [
    `Return on order ${receiptNumber(found.orderId)}, asked on ${dayOf(found.createdAt)}, for ${found.resolution === 'exchange' ? 'an exchange' : `a refund of ${formatUGX(found.amount)}`}: ${found.lines.map(piece).join(', ')}.`,
    returnState(found),
  ];
  for (const refund of found.refunds) said.push(`Refund: ${refundLine(refund)}`);
  return said.join(' ');
}

/** A refund that is not a return's (a cancelled order's money), or one due but not sent yet. */
export function orderRefundLine(refund: RefundForShopper): string {
  return `Refund for order ${refund.orderId ? receiptNumber(refund.orderId) : '(removed)'}: ${refundLine(refund)}`;
}
