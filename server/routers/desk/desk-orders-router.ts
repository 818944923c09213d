// The desk's orders (/desk/orders): the order book (decision 0074), status moves, the money (bank transfers and
// cash confirmed by hand, refunds, short or reversed payments) and the SMS log with its
// statistics and Resend. The shop's staff and owners (core/desk-roles.ts); a customer gets FORBIDDEN.
// Earlier clients call these as `operator.*` (server/routers/index.ts keeps that name).
import type { TRPCRouterRecord } from '@trpc/server';
import { DELIVERY_TEXT } from '#core/delivery-rules.ts';
import { MONEY_TEXT, markPaidInput, markRefundedInput } from '#core/desk-money.ts';
import { orderBookInput } from '#core/desk-order-book.ts';
import { DESK_ORDERS_TEXT, resendInput, setStatusInput, smsHistoryInput } from '#core/sms.ts';
import {
  type MarkPaidProblem,
  type MarkRefundedProblem,
  markOrderPaid,
  markPaymentRefunded,
  moneyDesk,
  orderBook,
  type SetStatusProblem,
  setOrderStatus,
} from '../../services/desk-orders-service.ts';
import { afterPaymentReceived } from '../../services/order-events.ts';
import { recordRefundByHand } from '../../services/refunds-service.ts';
import {
  queueRefundText,
  queueStatusText,
  resendSms,
  smsHistory,
  smsStatistics,
} from '../../services/sms-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure, shopperError } from '../../trpc.ts';

const setStatusRefusal: Refusals<SetStatusProblem> = {
  'not-found': ['NOT_FOUND', DESK_ORDERS_TEXT.orderNotFound],
  'pickup-only': ['BAD_REQUEST', DELIVERY_TEXT.pickupOnly],
  'delivery-only': ['BAD_REQUEST', DELIVERY_TEXT.deliveryOnly],
  'given-back': ['CONFLICT', DESK_ORDERS_TEXT.givenBack],
  'card-issued': ['CONFLICT', DESK_ORDERS_TEXT.cardIssued],
};

const markPaidRefusal: Refusals<MarkPaidProblem> = {
  'not-found': ['NOT_FOUND', MONEY_TEXT.orderNotFound],
  'already-paid': ['CONFLICT', MONEY_TEXT.alreadyPaid],
  cancelled: ['CONFLICT', MONEY_TEXT.cancelled],
  'paid-by-provider': ['CONFLICT', MONEY_TEXT.paidByProvider],
  'payment-waiting': ['CONFLICT', MONEY_TEXT.paymentWaiting],
};

const markRefundedRefusal: Refusals<MarkRefundedProblem> = {
  'not-found': ['NOT_FOUND', MONEY_TEXT.paymentNotFound],
  'already-refunded': ['CONFLICT', MONEY_TEXT.alreadyRefunded],
  'not-refundable': ['CONFLICT', MONEY_TEXT.notRefundable],
};

export const ordersDesk = {
  /** The order book: a page of 50 orders (search, chips, filters, cursor) and the chips' counts. */
  orders: deskProcedure.input(orderBookInput).query(({ ctx, input }) => orderBook(ctx.db, input)),

  setStatus: deskProcedure.input(setStatusInput).mutation(async ({ ctx, input }) => {
    const rider =
      input.status === 'out_for_delivery' && input.riderName && input.riderPhone
        ? { name: input.riderName, phone: input.riderPhone }
        : null;
    const changed = accepted(
      await setOrderStatus(ctx.db, input.orderId, input.status, rider, {
        actor: ctx.user,
        tracking: input.tracking,
        reason: input.reason,
      }),
      setStatusRefusal,
    );
    if (changed.previous !== input.status) {
      await queueStatusText(ctx, input.orderId, {
        status: input.status,
        tracking: input.tracking,
        reason: input.reason,
        // A cancelled order whose payment was received is refunded (now a refund due on the desk).
        refund: changed.refundDue,
        rider,
      });
    }
    return { status: input.status, previous: changed.previous };
  }),

  money: deskProcedure.query(({ ctx }) => moneyDesk(ctx.db)),

  /** A bank transfer, or the rider's cash, received: the order is paid, once. */
  markPaid: deskProcedure.input(markPaidInput).mutation(async ({ ctx, input }) => {
    const result = accepted(
      await markOrderPaid(ctx.db, { ...input, operatorId: ctx.user.id, actor: ctx.user }),
      markPaidRefusal,
    );
    ctx.background(
      afterPaymentReceived(ctx, {
        orderId: result.orderId,
        amount: result.amount,
        transactionId: result.reference,
      }),
    );
    return { orderId: result.orderId, status: 'paid' as const, reference: result.reference };
  }),

  /**
   * Money due back was returned to the customer by hand: a payment's (refund_due, short), or a
   * return's refund staff paid themselves (`refundId`). Recorded once, with its reference.
   */
  markRefunded: deskProcedure.input(markRefundedInput).mutation(async ({ ctx, input }) => {
    if (input.refundId) {
      const done = accepted(
        await recordRefundByHand(ctx, {
          refundId: input.refundId,
          reference: input.reference,
          actor: ctx.user,
        }),
        { ...markRefundedRefusal, 'not-found': ['NOT_FOUND', MONEY_TEXT.refundNotFound] },
      );
      return { paymentId: null, refundId: done.refundId, status: 'refunded' as const };
    }
    const result = accepted(
      await markPaymentRefunded(ctx.db, {
        paymentId: input.paymentId ?? '',
        reference: input.reference,
        operatorId: ctx.user.id,
        actor: ctx.user,
      }),
      markRefundedRefusal,
    );
    if (result.orderId) {
      await queueRefundText(ctx, {
        orderId: result.orderId,
        amount: result.amount,
        reference: input.reference,
      });
    }
    return { paymentId: result.paymentId, status: 'refunded' as const };
  }),

  sms: deskProcedure.input(smsHistoryInput).query(async ({ ctx, input }) => {
    const rows = await smsHistory(ctx.db, input ?? {});
    return rows.map((row) => ({
      id: row.id,
      orderId: row.orderId,
      recipientPhone: row.recipientPhone,
      recipientType: row.recipientType,
      kind: row.kind,
      message: row.messageContent,
      status: row.status,
      error: row.errorMessage,
      channel: row.channel,
      whatsappStatus: row.whatsappStatus,
      fallback: row.fallbackReason,
      attempts: row.attempts,
      sentAt: row.sentAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    }));
  }),

  smsStats: deskProcedure.query(({ ctx }) => smsStatistics(ctx.db)),

  resend: deskProcedure.input(resendInput).mutation(async ({ ctx, input }) => {
    const row = await resendSms(ctx, input.id);
    return row
      ? { id: row.id, status: row.status }
      : shopperError('NOT_FOUND', DESK_ORDERS_TEXT.smsNotFound);
  }),
} satisfies TRPCRouterRecord;
