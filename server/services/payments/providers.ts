// The payment providers the shop is configured for, built from server/env.ts's variables:
// MTN when all MOMO_* are set, Airtel when its base URL, client id and secret are (AIRTEL_PUBLIC_KEY,
// AIRTEL_RSA_PADDING and AIRTEL_CALLBACK_SECRET are optional), Pesapal (cards) when its key and secret are (env.ts
// refuses half a set).
import { type Network, PROVIDER_TIMEOUT_MS } from '#core/mobile-money.ts';
import type { ShopEnv } from '../../env.ts';
import { airtelMoney } from './airtel-money.ts';
import { mtnMomo } from './mtn-momo.ts';
import { type CardPayments, pesapal } from './pesapal.ts';
import type { MobileMoneyProvider } from './provider.ts';

export type MobileMoney = {
  providers: Partial<Record<Network, MobileMoneyProvider>>;
  /** The shop's public origin: callbacks come to {origin}/api/payments/…. */
  callbackOrigin: string;
  /** Card payments through Pesapal; absent: not configured (a card order cannot be paid online). */
  card?: CardPayments;
};

type Config = Pick<
  ShopEnv,
  | 'BETTER_AUTH_URL'
  | 'MOMO_BASE_URL'
  | 'MOMO_API_USER'
  | 'MOMO_API_KEY'
  | 'MOMO_SUBSCRIPTION_KEY'
  | 'MOMO_TARGET_ENVIRONMENT'
  | 'AIRTEL_BASE_URL'
  | 'AIRTEL_CLIENT_ID'
  | 'AIRTEL_CLIENT_SECRET'
  | 'AIRTEL_PUBLIC_KEY'
  | 'AIRTEL_RSA_PADDING'
  | 'AIRTEL_CALLBACK_SECRET'
  | 'PESAPAL_BASE_URL'
  | 'PESAPAL_CONSUMER_KEY'
  | 'PESAPAL_CONSUMER_SECRET'
  | 'PESAPAL_IPN_ID'
>;

export function mobileMoneyFrom(config: Config, timeoutMs = PROVIDER_TIMEOUT_MS): MobileMoney {
  const providers: MobileMoney['providers'] = {};
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
  }
  if (config.AIRTEL_BASE_URL && config.AIRTEL_CLIENT_ID && config.AIRTEL_CLIENT_SECRET) {
    providers.airtel = airtelMoney({
      baseUrl: config.AIRTEL_BASE_URL,
      clientId: config.AIRTEL_CLIENT_ID,
      clientSecret: config.AIRTEL_CLIENT_SECRET,
      // Optional: the signing key (else fetched from Airtel), its padding, and callback
      // authentication when the portal has it.
      publicKey: config.AIRTEL_PUBLIC_KEY,
      rsaPadding: config.AIRTEL_RSA_PADDING,
      callbackSecret: config.AIRTEL_CALLBACK_SECRET,
      timeoutMs,
    });
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
  return {
    providers,
    callbackOrigin: config.BETTER_AUTH_URL.replace(/\/+$/, ''),
    ...(card ? { card } : {}),
  };
}
