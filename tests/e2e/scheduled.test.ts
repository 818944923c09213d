// The Cron Trigger end to end: the production Worker in workerd runs its `scheduled` handler
// (wrangler's local /cdn-cgi/handler/scheduled), and each area's sweep picks up what the request
// path left: here, texts whose delivery failed or whose deliverer stopped go out to the fake
// EgoSMS gateway; a text due later stays queued.
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SMS_STUCK_AFTER_S } from '#core/sms.ts';
import { createDb } from '#db/client.ts';
import { smsNotifications } from '#db/schema/index.ts';
import { shop } from '../support/shop.ts';

const db = createDb(shop().databaseUrl);

async function textsTo(number: string): Promise<string[]> {
  const base = new URL(shop().fakeEnv.EGOSMS_URL ?? '').origin;
  const sent = (await (await fetch(`${base}/__sent`)).json()) as {
    number: string;
    message: string;
  }[];
  // EgoSMS gets 256XXXXXXXXX, without the '+' the shop keeps.
  return sent
    .filter((text) => text.number === number.replace(/^\+/, ''))
    .map((text) => text.message);
}

describe('the Cron Trigger', () => {
  it('sends the texts that are due and recovers a stopped delivery; a later one waits', async () => {
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    const row = (phone: string, message: string) => ({
      recipientPhone: phone,
      recipientType: 'customer',
      kind: 'welcome',
      messageContent: message,
    });
    const [retry, stuck, later] = await db
      .insert(smsNotifications)
      .values([
        // Failed once at the gateway: back to pending, due a minute ago.
        { ...row('+256772555801', 'duuka: a retried text'), attempts: 1, nextAttemptAt: ago(60) },
        // Claimed by a Worker that stopped before it finished.
        {
          ...row('+256772555802', 'duuka: a text whose deliverer stopped'),
          status: 'sending',
          claimedAt: ago(SMS_STUCK_AFTER_S + 60),
        },
        // Backing off: not due for an hour.
        {
          ...row('+256772555803', 'duuka: a text due later'),
          attempts: 2,
          nextAttemptAt: new Date(Date.now() + 3_600_000),
        },
      ])
      .returning({ id: smsNotifications.id });
    if (!retry || !stuck || !later) throw new Error('three rows');

    const answer = await fetch(new URL('/cdn-cgi/handler/scheduled?cron=*+*+*+*+*', shop().url));
    expect(answer.status).toBe(200);

    const statuses = async () =>
      Object.fromEntries(
        (
          await db
            .select({ id: smsNotifications.id, status: smsNotifications.status })
            .from(smsNotifications)
            .where(inArray(smsNotifications.id, [retry.id, stuck.id, later.id]))
        ).map((r) => [r.id, r.status]),
      );
    await expect
      .poll(statuses, { timeout: 15_000 })
      .toEqual({ [retry.id]: 'sent', [stuck.id]: 'sent', [later.id]: 'pending' });
    await expect(textsTo('+256772555801')).resolves.toEqual(['duuka: a retried text']);
    await expect(textsTo('+256772555802')).resolves.toEqual([
      'duuka: a text whose deliverer stopped',
    ]);
    await expect(textsTo('+256772555803')).resolves.toEqual([]);
    const [sent] = await db
      .select()
      .from(smsNotifications)
      .where(eq(smsNotifications.id, retry.id));
    expect(sent?.attempts).toBe(2);
    expect(sent?.sentAt).not.toBeNull();
  });
});
