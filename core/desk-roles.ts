// The boutique's desk (issue 22): who may use it, and the words its parts share. Pure: no I/O.
// Each part's inputs and texts sit beside it (core/desk-*.ts); these are what they have in common.
import * as v from 'valibot';

/** Staff run the catalogue, stock, pictures and orders; the owner also manages staff and money. */
export const DESK_ROLES = ['staff', 'owner'] as const;
export type DeskRole = (typeof DESK_ROLES)[number];

/** What "user".role may hold: a shopper, or a desk role. */
export type UserRole = 'customer' | DeskRole;

export const isDeskRole = (role: unknown): role is DeskRole =>
  (DESK_ROLES as readonly unknown[]).includes(role);

/**
 * A signed-in person's desk role: OPERATOR_EMAILS (the bootstrap) act as owners, else the role
 * stored on their account, else none.
 */
export function deskRoleOf(
  user: { email: string; role?: string | null },
  ownerEmails: readonly string[],
): DeskRole | null {
  if (ownerEmails.includes(user.email.toLowerCase())) return 'owner';
  return isDeskRole(user.role) ? user.role : null;
}

/** draft: only the desk sees it; published: on sale; archived: hidden, kept for its orders. */
export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Why a variant's stock changed (stock_movements.reason). The desk may give the last four. */
export const STOCK_REASONS = [
  'sale',
  'order-deleted',
  'saved',
  'imported',
  'received',
  'counted',
  'damaged',
  'returned',
  // Issue 36: a piece held for an exchange, given back when the exchange is refused, and a
  // returned piece kept out of stock because it came back damaged (a change of 0, logged).
  'exchange-held',
  'exchange-released',
  'return-damaged',
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];
export const ADJUST_REASONS = ['received', 'counted', 'damaged', 'returned'] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

export const DESK_TEXT = {
  deskOnly: 'Staff only.',
  ownerOnly: 'Only the shop’s owner can do this.',
  productNotFound: 'Product not found',
  variantNotFound: 'Variant not found',
  badRequestKey: 'This save could not be matched. Reload the page and try again.',
} as const;

/**
 * A save's key, made by the page when the form opens: the same key again (a retry after a dropped
 * connection) answers the first save's result instead of saving twice.
 */
export const requestKey = v.pipe(
  v.string(DESK_TEXT.badRequestKey),
  v.uuid(DESK_TEXT.badRequestKey),
);
