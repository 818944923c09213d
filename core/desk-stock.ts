// Stock at the desk (issue 22): an adjustment's input, the log's words, and the texts staff read.
// Pure: no I/O.
import * as v from 'valibot';
import { cursorSchema, idSchema } from './bounds.ts';
import { ADJUST_REASONS, type AdjustReason, requestKey, type StockReason } from './desk-roles.ts';
import { orderIdHead } from './order-rules.ts';

/** An adjustment moves at most this many pieces at once: a typo, not a delivery, beyond it. */
export const MAX_ADJUSTMENT = 10_000;

/** A count of what is on the shelf is at most this many pieces of one size. */
export const MAX_COUNT = 10_000;

/** The reasons that add or take pieces (`delta`); 'counted' says what is on the shelf (`count`). */
export const DELTA_REASONS = ADJUST_REASONS.filter(
  (reason): reason is Exclude<AdjustReason, 'counted'> => reason !== 'counted',
);
export type DeltaReason = (typeof DELTA_REASONS)[number];

/** The log's page size. */
export const STOCK_LOG_PAGE = 50;

export const STOCK_TEXT = {
  badVariant: 'Choose a piece to adjust.',
  badDelta: `The change must be a whole number of pieces, from -${MAX_ADJUSTMENT} to ${MAX_ADJUSTMENT}.`,
  zeroDelta: 'The change can’t be zero.',
  // Not "received": the error formatter takes a message with that word for valibot's default.
  badReason: 'Choose why the stock changed: a delivery, a count, damage or a return.',
  badCursor: 'This page of the log could not be read. Reload the page.',
  badSearch: 'Search with at most 100 characters.',
  incomplete: 'Give the piece, the change and why it changed.',
  badCount: `The count must be a whole number of pieces, from 0 to ${MAX_COUNT.toLocaleString('en-US')}.`,
  countQuestion: 'How many on the shelf?',
  incompleteCount: 'Give the piece and how many are on the shelf.',
  /** What a count will log, before it is saved: "Logs +2 (4 in stock now)". */
  countDifference: (count: number, stock: number) =>
    count === stock
      ? `Matches the ${stock} in stock: the count is logged with no change.`
      : `Logs ${signedChange(count - stock)} (${stock} in stock now).`,
  belowZero: (left: number) =>
    left === 0
      ? 'None left: stock can’t go below zero.'
      : `Only ${left} left: stock can’t go below zero.`,
  saved: (stock: number) => `Stock is now ${stock}`,
} as const;

const variantId = idSchema(STOCK_TEXT.badVariant);

const requestKeyField = v.optional(requestKey);

/** Pieces received, damaged or returned: a change with its reason. */
const deltaAdjustment = v.object(
  {
    variantId,
    reason: v.picklist(DELTA_REASONS, STOCK_TEXT.badReason),
    delta: v.pipe(
      v.number(STOCK_TEXT.badDelta),
      v.integer(STOCK_TEXT.badDelta),
      v.minValue(-MAX_ADJUSTMENT, STOCK_TEXT.badDelta),
      v.maxValue(MAX_ADJUSTMENT, STOCK_TEXT.badDelta),
      v.check((n) => n !== 0, STOCK_TEXT.zeroDelta),
    ),
    requestKey: requestKeyField,
  },
  STOCK_TEXT.incomplete,
);

/** A count: what is on the shelf becomes the stock (decision 0079). */
const countAdjustment = v.object(
  {
    variantId,
    reason: v.literal('counted', STOCK_TEXT.badReason),
    count: v.pipe(
      v.number(STOCK_TEXT.badCount),
      v.integer(STOCK_TEXT.badCount),
      v.minValue(0, STOCK_TEXT.badCount),
      v.maxValue(MAX_COUNT, STOCK_TEXT.badCount),
    ),
    requestKey: requestKeyField,
  },
  STOCK_TEXT.incompleteCount,
);

/**
 * `{ variantId, reason: 'counted', count }` or `{ variantId, reason, delta }` (received, damaged,
 * returned). Not an object at all: `incomplete`; an unknown or missing reason: `badReason`.
 */
export const adjustStockInput = v.pipe(
  v.looseObject({}, STOCK_TEXT.incomplete),
  v.variant('reason', [countAdjustment, deltaAdjustment], STOCK_TEXT.badReason),
);
export type AdjustStockInput = v.InferOutput<typeof adjustStockInput>;

export const stockLogInput = v.optional(
  v.object({
    variantId: v.optional(variantId),
    /** The last row's id of the page before: the next page starts below it. */
    before: v.optional(cursorSchema(STOCK_TEXT.badCursor)),
  }),
);

export const stockSearchInput = v.object({
  q: v.pipe(
    v.string(STOCK_TEXT.badSearch),
    v.maxLength(100, STOCK_TEXT.badSearch),
    v.check((q) => !q.includes('\0'), STOCK_TEXT.badSearch),
  ),
});

/** The reason in words, as the log shows it. */
export const STOCK_REASON_WORDS: Record<StockReason, string> = {
  sale: 'Sale',
  'order-deleted': 'Order deleted',
  saved: 'Saved',
  imported: 'Imported',
  received: 'Received',
  counted: 'Counted',
  damaged: 'Damaged',
  returned: 'Returned',
  'exchange-held': 'Held for an exchange',
  'exchange-released': 'Exchange refused',
  'return-damaged': 'Returned damaged',
};

export const adjustReasonWords = (reason: AdjustReason) => STOCK_REASON_WORDS[reason];

/** "+3", "−2" (a true minus), "0". */
export function signedChange(change: number): string {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${Math.abs(change)}`;
  return '0';
}

/** "Ankara Wrap Dress · M · Indigo", or the name alone for a piece without options. */
export const pieceName = (name: string, label: string) => (label ? `${name} · ${label}` : name);

/**
 * Who made a change, as the log shows it: the staff member, else the shopper's order (its short
 * id), else a shopper whose order is gone, else the count the log opened with.
 */
export function stockWho(row: {
  actorEmail: string | null;
  orderId: string | null;
  reason: string;
}): string {
  if (row.actorEmail) return row.actorEmail;
  if (row.orderId) return `Order #${orderIdHead(row.orderId)}`;
  if (row.reason === 'sale' || row.reason === 'order-deleted') return 'A shopper';
  return 'Opening count';
}
