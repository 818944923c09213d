// Orders the desk takes by phone, on WhatsApp or at the counter (issue 34, decision 0076):
// desk.createOrder and desk.customerByPhone, for the shop's staff and owner (a customer gets
// FORBIDDEN). The order is written as a shopper's checkout is; its texts are the same.
import type { TRPCRouterRecord } from '@trpc/server';
import * as v from 'valibot';
import {
  createOrderInput,
  customerByPhoneInput,
  customerPhone,
  DESK_PHONE_ORDERS_TEXT,
} from '#core/desk-phone-orders.ts';
import {
  cashReference,
  createDeskOrder,
  customerByPhone,
  type DeskOrderProblem,
  type DeskOrderRefused,
} from '../../services/desk-phone-orders-service.ts';
import { afterOrderPlaced, afterPaymentReceived } from '../../services/order-events.ts';
import { BY_DESK, startPayment } from '../../services/payments/service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';
import { checkoutRefusals } from '../checkout-router.ts';

const T = DESK_PHONE_ORDERS_TEXT;

/** The checkout's texts for what both refuse alike; the desk's own for the rest. */
const createOrderRefusals: Refusals<DeskOrderProblem, DeskOrderRefused> = {
  ...checkoutRefusals,
  'empty-cart': ['BAD_REQUEST', T.noItems],
  // The desk asks no profile: never answered, kept for the table's completeness.
  'profile-incomplete': ['BAD_REQUEST', T.badCustomer],
  'order-id-taken': ['CONFLICT', T.orderIdTaken],
  'cash-at-counter-only': ['BAD_REQUEST', T.cashAtCounterOnly],
};

export const phoneOrdersDesk = {
  /**
   * An order taken by phone, on WhatsApp or at the counter. Placed: the customer's texts and the
   * admin's alert are queued as for an online order (after the answer); cash at the counter was
   * paid in the same batch (its 'payment received' text follows the confirmation); mobile money
   * sends the prompt to the customer's phone through the site's own payment path before answering.
   */
  createOrder: deskProcedure.input(createOrderInput).mutation(async ({ ctx, input }) => {
    const order = accepted(await createDeskOrder(ctx.db, ctx.user, input), createOrderRefusals);
    let prompt: { state: string; message: string | null } | null = null;
    if (order.created) {
      ctx.background(
        (async () => {
          await afterOrderPlaced(ctx, {
            orderId: order.orderId,
            created: true,
            total: order.total,
            deliveryFee: 0,
            receipt: null,
          });
          if (order.paid) {
            await afterPaymentReceived(ctx, {
              orderId: order.orderId,
              amount: order.total,
              transactionId: cashReference(order.orderId),
            });
          }
        })(),
      );
    }
    if (input.paymentMethod === 'mobile_money') {
      // A retry asks again only if no prompt waits (startPayment answers the waiting one).
      try {
        const started = await startPayment(ctx, BY_DESK, {
          orderId: order.orderId,
          phone: input.customer.phone,
        });
        prompt = started.ok
          ? { state: started.payment.state, message: started.payment.message }
          : { state: 'not-sent', message: null };
      } catch (error) {
        // The order stands: the desk's Money view shows it waiting; the prompt can be sent again.
        console.error(`Desk order ${order.orderId}: the payment prompt could not be sent`, error);
        prompt = { state: 'not-sent', message: null };
      }
    }
    return {
      orderId: order.orderId,
      created: order.created,
      total: order.total,
      paid: order.paid,
      customerId: order.customerId,
      prompt,
    };
  }),

  /** The account a phone number belongs to (as the staff member types it), or null. */
  customerByPhone: deskProcedure.input(customerByPhoneInput).query(async ({ ctx, input }) => {
    const phone = v.safeParse(customerPhone, input.phone);
    if (!phone.success) return { customer: null };
    return { customer: await customerByPhone(ctx.db, phone.output) };
  }),
} satisfies TRPCRouterRecord;
