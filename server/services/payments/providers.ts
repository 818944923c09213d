// The payment providers the shop is configured for, built from server/env.ts's variables:
// MTN when all MOMO_* are set (its refunds when MOMO_DISBURSEMENT_* are set too), Airtel when its base URL, client id and secret are (AIRTEL_PUBLIC_KEY,
// AIRTEL_RSA_PADDING and AIRTEL_CALLBACK_SECRET are optional; its refunds with AIRTEL_DISBURSEMENT_PIN),
// Pesapal (cards, and their refunds) when its key and secret are (env.ts refuses half a set).
import { type Network, PROVIDER_TIMEOUT_MS } from '#core/mobile-money.ts';
import type { ShopEnv } from '../../env.ts';
import { airtelDisbursement } from './airtel-disbursement.ts';
import { airtelMoney } from './airtel-money.ts';
import { mtnDisbursement } from './mtn-disbursement.ts';
import { mtnMomo } from './mtn-momo.ts';
import { type CardPayments, pesapal } from './pesapal.ts';
import { pesapalRefunds } from './pesapal-refunds.ts';
import type { MobileMoneyProvider, RefundSender } from './provider.ts';

/** Who sends a refund back: the provider that took the money (issue 36). */
export type RefundNetwork = Network | 'pesapal';

export type MobileMoney = {
  providers: Partial<Record<Network, MobileMoneyProvider>>;
  /** The shop's public origin: callbacks come to {origin}/api/payments/…. */
  callbackOrigin: string;
  /** Card payments through Pesapal; absent: not configured (a card order cannot be paid online). */
  card?: CardPayments;
  /** Refunds through the provider that took the money; a network absent here: by hand. */
  refunds?: Partial<Record<RefundNetwork, RefundSender>>;
};

type Config = Pick<
  ShopEnv,
  | 'BETTER_AUTH_URL'
  | 'MOMO_BASE_URL'
  | 'MOMO_API_USER'
  | 'MOMO_API_KEY'
  | 'MOMO_SUBSCRIPTION_KEY'
  | 'MOMO_TARGET_ENVIRONMENT'
  | 'MOMO_DISBURSEMENT_API_USER'
  | 'MOMO_DISBURSEMENT_API_KEY'
  | 'MOMO_DISBURSEMENT_SUBSCRIPTION_KEY'
  | 'AIRTEL_BASE_URL'
  | 'AIRTEL_CLIENT_ID'
  | 'AIRTEL_CLIENT_SECRET'
  | 'AIRTEL_PUBLIC_KEY'
  | 'AIRTEL_RSA_PADDING'
  | 'AIRTEL_CALLBACK_SECRET'
  | 'AIRTEL_DISBURSEMENT_PIN'
  | 'PESAPAL_BASE_URL'
  | 'PESAPAL_CONSUMER_KEY'
  | 'PESAPAL_CONSUMER_SECRET'
  | 'PESAPAL_IPN_ID'
>;

export function mobileMoneyFrom(config: Config, timeoutMs = PROVIDER_TIMEOUT_MS): MobileMoney {
  const providers: MobileMoney['providers'] = {};
  const refunds: NonNullable<MobileMoney['refunds']> = {};
  if (
    config.MOMO_BASE_URL &&
    config.MOMO_API_USER &&
    config.MOMO_API_KEY &&
    config.MOMO_SUBSCRIPTION_KEY &&
    config.MOMO_TARGET_ENVIRONMENT
  ) {
    providers.mtn = mtnMomo({
      baseUrl: config.MOMO_BASE_URL,
      apiUser: config.MOMO_API_USER,
      apiKey: config.MOMO_API_KEY,
      subscriptionKey: config.MOMO_SUBSCRIPTION_KEY,
      targetEnvironment: config.MOMO_TARGET_ENVIRONMENT,
      timeoutMs,
    });
    if (
      config.MOMO_DISBURSEMENT_API_USER &&
      config.MOMO_DISBURSEMENT_API_KEY &&
      config.MOMO_DISBURSEMENT_SUBSCRIPTION_KEY
    ) {
      refunds.mtn = mtnDisbursement({
        baseUrl: config.MOMO_BASE_URL,
        apiUser: config.MOMO_DISBURSEMENT_API_USER,
        apiKey: config.MOMO_DISBURSEMENT_API_KEY,
        subscriptionKey: config.MOMO_DISBURSEMENT_SUBSCRIPTION_KEY,
        targetEnvironment: config.MOMO_TARGET_ENVIRONMENT,
        timeoutMs,
      });
    }
  }
  if (config.AIRTEL_BASE_URL && config.AIRTEL_CLIENT_ID && config.AIRTEL_CLIENT_SECRET) {
    const airtel = {
      baseUrl: config.AIRTEL_BASE_URL,
      clientId: config.AIRTEL_CLIENT_ID,
      clientSecret: config.AIRTEL_CLIENT_SECRET,
      // Optional: the signing key (else fetched from Airtel), its padding, and callback
      // authentication when the portal has it.
      publicKey: config.AIRTEL_PUBLIC_KEY,
      rsaPadding: config.AIRTEL_RSA_PADDING,
      callbackSecret: config.AIRTEL_CALLBACK_SECRET,
      timeoutMs,
    };
    providers.airtel = airtelMoney(airtel);
    if (config.AIRTEL_DISBURSEMENT_PIN) {
      refunds.airtel = airtelDisbursement({ ...airtel, pin: config.AIRTEL_DISBURSEMENT_PIN });
    }
  }
  const card =
    config.PESAPAL_CONSUMER_KEY && config.PESAPAL_CONSUMER_SECRET
      ? pesapal({
          baseUrl: config.PESAPAL_BASE_URL,
          consumerKey: config.PESAPAL_CONSUMER_KEY,
          consumerSecret: config.PESAPAL_CONSUMER_SECRET,
          ipnId: config.PESAPAL_IPN_ID ?? null,
          timeoutMs,
        })
      : undefined;
  if (card) refunds.pesapal = pesapalRefunds(card);
  return {
    providers,
    refunds,
    callbackOrigin: config.BETTER_AUTH_URL.replace(/\/+$/, ''),
    ...(card ? { card } : {}),
  };
}
