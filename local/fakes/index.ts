// The outside services' fakes (payment providers, SMS gateway, WhatsApp, the model), each speaking
// its real API's shape on loopback, started by `npm start`, `npm run preview` and the browser
// tests so a fresh clone can pay, get texts and chat with no account anywhere. Each area adds its
// fake here: it starts a server and names the Worker variables that point the real adapter at it.
// A variable the caller set wins (`MOMO_BASE_URL=… npm start` talks to that endpoint instead).
import { startFakeEgoSms } from './egosms-fake.ts';
import { startFakeGemini } from './gemini.ts';
import { startFakeMobileMoney } from './mobile-money-fake.ts';
import { startFakePesapal } from './pesapal-fake.ts';
import { startFakeWhatsApp } from './whatsapp-fake.ts';

export type LocalFake = {
  /** Worker variables for this fake (the adapter's base URL and credentials). */
  env: Record<string, string>;
  close(): Promise<void>;
};

/** `shopOrigin`: the shop the fakes call back (else BETTER_AUTH_URL when they call). */
type FakeOptions = { shopOrigin?: string };
type StartFake = (options: FakeOptions) => Promise<LocalFake>;

/** Each area's fake; `npm start` and the browser tests start them all. */
const FAKES: StartFake[] = [
  ({ shopOrigin }) =>
    startFakeMobileMoney(
      shopOrigin ? { airtelCallbackUrl: `${shopOrigin}/api/payments/airtel` } : {},
    ),
  () => startFakeEgoSms(),
  () => startFakeGemini(),
  () => startFakePesapal(),
  ({ shopOrigin }) =>
    startFakeWhatsApp(
      shopOrigin ? { webhookUrl: `${shopOrigin}/api/whatsapp/webhook` } : { shopFromEnv: true },
    ),
];

export type LocalFakes = { env: Record<string, string>; close(): Promise<void> };

export async function startLocalFakes(options: FakeOptions = {}): Promise<LocalFakes> {
  const started = await Promise.all(FAKES.map((start) => start(options)));
  return {
    env: Object.assign({}, ...started.map((fake) => fake.env)),
    close: async () => {
      await Promise.all(started.map((fake) => fake.close()));
    },
  };
}

/** Sets each fake's variables unless the caller set that variable already. */
export function applyFakeEnv(env: Record<string, string>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!process.env[name]?.trim()) process.env[name] = value;
  }
}
