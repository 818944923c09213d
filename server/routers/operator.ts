// The operator's desk (/operator): orders with status controls and the SMS log with its
// statistics and Resend. Operators only (OPERATOR_EMAILS); a customer gets FORBIDDEN.
import { OPERATOR_TEXT, resendInput, setStatusInput, smsHistoryInput } from '#core/sms.ts';
import { orderWasPaid, recentOrders, setOrderStatus } from '../services/operator.ts';
import { queueStatusText, resendSms, smsHistory, smsStatistics } from '../services/sms.ts';
import { operatorProcedure, router, shopperError } from '../trpc.ts';

export const operatorRouter = router({
  orders: operatorProcedure.query(({ ctx }) => recentOrders(ctx.db)),

  setStatus: operatorProcedure.input(setStatusInput).mutation(async ({ ctx, input }) => {
    const changed = await setOrderStatus(ctx.db, input.orderId, input.status);
    if (!changed) return shopperError('NOT_FOUND', OPERATOR_TEXT.orderNotFound);
    if (changed.previous !== input.status) {
      await queueStatusText(ctx, input.orderId, {
        status: input.status,
        tracking: input.tracking,
        reason: input.reason,
        // A cancelled order whose payment was received is refunded.
        refund: input.status === 'cancelled' && (await orderWasPaid(ctx.db, input.orderId)),
      });
    }
    return { status: input.status, previous: changed.previous };
  }),

  sms: operatorProcedure.input(smsHistoryInput).query(async ({ ctx, input }) => {
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
      attempts: row.attempts,
      sentAt: row.sentAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    }));
  }),

  smsStats: operatorProcedure.query(({ ctx }) => smsStatistics(ctx.db)),

  resend: operatorProcedure.input(resendInput).mutation(async ({ ctx, input }) => {
    const row = await resendSms(ctx, input.id);
    return row
      ? { id: row.id, status: row.status }
      : shopperError('NOT_FOUND', OPERATOR_TEXT.smsNotFound);
  }),
});
