// Pesapal's refunds (API 3.0 "RefundRequest"): one refund per payment, never more than it took,
// only a COMPLETED payment, a card in part or whole, mobile money only whole, in the payment's
// currency. Pesapal has no refund status call: a request it takes goes to its finance team, and
// the refund is read back as the payment itself turning REVERSED in GetTransactionStatus (the
// payment's order tracking id). A partial card refund may leave the payment COMPLETED: such a
// refund stays 'sent' until staff record it by hand (desk.markRefunded with its refundId), as a
// refund Pesapal's finance team turns down does. docs/payments.md, "Refunds".
import type { RefundFailure } from '#core/returns.ts';
import type { CardPayments } from './pesapal.ts';
import {
  type RefundOrder,
  RefundRefused,
  type RefundSender,
  type RefundStatus,
} from './provider.ts';

/** Pesapal's refusal (its `message`) in the shop's words. */
export function pesapalRefundRefusal(message: string): RefundFailure {
  if (/multiple|already|one refund/i.test(message)) return 'already-refunded';
  if (/mobile|partial|full/i.test(message)) return 'partial-mobile';
  if (/more than|exceed|greater|originally collected/i.test(message)) return 'over-paid';
  if (/completed|status/i.test(message)) return 'not-completed';
  if (/token|unauthori[sz]ed|credential|consumer/i.test(message)) return 'setup';
  return 'declined';
}

export function pesapalRefunds(card: CardPayments): RefundSender {
  return {
    async sendRefund(refund: RefundOrder) {
      const code = refund.payment.transactionId;
      if (!code) throw new RefundRefused('Pesapal refund: no confirmation code', 'not-completed');
      const refused = await card.refundRequest({
        confirmationCode: code,
        amount: refund.amount,
        username: refund.actor,
        remarks: `Refund for order ${refund.orderId.slice(0, 8)}`,
      });
      if (refused !== null) {
        throw new RefundRefused(`Pesapal refund: ${refused}`, pesapalRefundRefusal(refused));
      }
    },

    async refundStatus(refund: RefundOrder): Promise<RefundStatus> {
      const trackingId = refund.payment.providerReference;
      if (!trackingId) return { state: 'unknown' };
      const status = await card.transactionStatus(trackingId);
      if (status.state === 'reversed') {
        return { state: 'successful', reference: refund.payment.transactionId ?? trackingId };
      }
      return { state: 'pending' };
    },
  };
}
