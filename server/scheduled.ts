// The Cron Trigger's work (wrangler.toml `[triggers]`, every minute): each area's sweep picks up
// what the request path left (payments still pending or expired within the day, SMS to retry).
// A sweep's failure is logged and never stops the others.

import type { Context } from './context.ts';
import { sweepBackInStock } from './services/back-in-stock.ts';
import { sweepCartReminders } from './services/cart-reminders.ts';
import { sweepCardPayments } from './services/payments/card.ts';
import { sweepPayments } from './services/payments/service.ts';
import { sweepRefunds } from './services/refunds-service.ts';
import { sweepSms } from './services/sms-service.ts';
import { sweepGiftCards } from './services/value-service.ts';

type Sweep = { name: string; run: (ctx: Context) => Promise<unknown> };

/** Each area adds its sweep here. */
const SWEEPS: Sweep[] = [
  { name: 'payments', run: sweepPayments },
  { name: 'card payments', run: sweepCardPayments },
  { name: 'refunds', run: sweepRefunds },
  { name: 'sms', run: sweepSms },
  { name: 'back in stock', run: sweepBackInStock },
  { name: 'cart reminders', run: sweepCartReminders },
  { name: 'gift cards', run: sweepGiftCards },
];

export async function runScheduledSweeps(ctx: Context): Promise<void> {
  await Promise.all(
    SWEEPS.map(({ name, run }) =>
      run(ctx).catch((error: unknown) => console.error(`Scheduled sweep ${name} failed`, error)),
    ),
  );
}
