// Where a shopper sends a bank transfer: the shop's account (BANK_TRANSFER_DETAILS, free text) and
// the order's reference to quote ('RCP-xxxxxxxx', the receipt number). The checkout, the order
// screens and the receipt show the same two things (decision 0037).
import { receiptNumber } from '#core/order-rules.ts';
import type { Context } from '../context.ts';

export type BankTransfer = {
  /** The shop's bank account as configured; null when BANK_TRANSFER_DETAILS is not set. */
  details: string | null;
  /** What the shopper quotes with the transfer, so the desk can match it to the order. */
  reference: string;
};

export function bankTransferDetails(
  ctx: Pick<Context, 'bankDetails'>,
  orderId: string,
): BankTransfer {
  return { details: ctx.bankDetails?.trim() || null, reference: receiptNumber(orderId) };
}
