// The shopper's texts at each step of a return (issue 36): asked, approved (with the handover),
// refused (with the staff's reason) and the exchange on its way. Like every order text they go
// only to a shopper whose Order updates are on, through the outbox, and never fail the step.
import { eq, sql } from 'drizzle-orm';
import type { Handover } from '#core/returns.ts';
import { SMS_TEXT, type SmsKind } from '#core/sms.ts';
import { DEFAULT_ADDRESS } from '#core/store-details.ts';
import {
  orderItems,
  orders,
  productVariants,
  profiles,
  returnLines,
  returns,
} from '#db/schema/index.ts';
import { settingsQuery, storedFrom } from './shop-settings.ts';
import {
  customerPhone,
  deliverLater,
  queueTexts,
  type TextingLater,
  wantsOrderTexts,
} from './sms-service.ts';

export type ReturnStep = 'requested' | 'approved' | 'refused' | 'exchange-shipped';

const KIND: Record<ReturnStep, SmsKind> = {
  requested: 'return-requested',
  approved: 'return-approved',
  refused: 'return-refused',
  'exchange-shipped': 'exchange-shipped',
};

/** Queues the step's text for the return's shopper (one per order, number and kind). */
export async function queueReturnText(
  ctx: TextingLater,
  returnId: string,
  step: ReturnStep,
): Promise<void> {
  try {
    const [[row], lines, settingRows] = await ctx.db.batch([
      ctx.db
        .select({
          orderId: returns.orderId,
          resolution: returns.resolution,
          handover: returns.handover,
          pickupFee: returns.pickupFee,
          staffReason: returns.staffReason,
          phone: customerPhone,
          wantsTexts: wantsOrderTexts,
        })
        .from(returns)
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .leftJoin(profiles, eq(profiles.id, orders.customerId))
        .where(eq(returns.id, returnId)),
      ctx.db
        .select({
          name: orderItems.name,
          label: returnLines.exchangeLabel,
          samePiece: sql<boolean>`${productVariants.productId} = ${orderItems.productId}`,
        })
        .from(returnLines)
        .innerJoin(orderItems, eq(orderItems.id, returnLines.orderItemId))
        .leftJoin(productVariants, eq(productVariants.id, returnLines.exchangeVariantId))
        .where(eq(returnLines.returnId, returnId)),
      settingsQuery(ctx.db),
    ]);
    if (!row?.wantsTexts) return;
    const { orderId } = row;
    const message =
      step === 'requested'
        ? SMS_TEXT.returnRequested({ orderId, exchange: row.resolution === 'exchange' })
        : step === 'approved'
          ? SMS_TEXT.returnApproved({
              orderId,
              handover: (row.handover ?? 'drop_off') as Handover,
              fee: row.pickupFee,
              address: storedFrom(settingRows).storeAddress ?? DEFAULT_ADDRESS,
            })
          : step === 'refused'
            ? SMS_TEXT.returnRefused({ orderId, reason: row.staffReason ?? '' })
            : SMS_TEXT.exchangeShipped({
                orderId,
                // Another size of the same piece is named with it; another piece, as labelled.
                pieces: lines.map((l) =>
                  l.samePiece
                    ? { name: l.name, label: l.label ?? '' }
                    : { name: l.label ?? l.name, label: '' },
                ),
              });
    deliverLater(
      ctx,
      await queueTexts(ctx.db, [
        { orderId, phone: row.phone, recipientType: 'customer', kind: KIND[step], message },
      ]),
    );
  } catch (error) {
    console.warn(`The return text (${step}) for return ${returnId} could not be queued`, error);
  }
}
