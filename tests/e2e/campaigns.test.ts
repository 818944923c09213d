// Campaigns in the browser (issue 35, decision 0085), against the production build: the owner on
// a 360 px phone picks an offer and an audience, sees the count, the cost and the text, and sends;
// the Cron Trigger sends the texts to the fake EgoSMS gateway; the shopper opens the stop link
// from her text, signed out, and stops offers (a second visit says they are off already). At
// 1366 px the campaigns sent are listed. Nothing wider than the window, light and dark.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { SMS_PART_COST_UGX } from '#core/campaign-rules.ts';
import { formatUGX } from '#core/money.ts';
import { STOP_TEXT } from '#core/stop-link.ts';
import { createDb } from '#db/client.ts';
import { categories, orderItems, orders, promotions, userSettings } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/duuka';

/** Nothing wider than the window, in light and in dark (screenshots of both when asked). */
async function fitsAndShoot(page: Page, width: number, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${shot} ${scheme}`).toBeLessThanOrEqual(width);
    if (process.env.E2E_SHOTS) {
      await page.screenshot({ path: `${SHOTS}/${shot}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // The colours fade back: axe read a button mid-fade (CI, once) without this.
  await settle(page);
}

/** The texts the fake gateway got for this number. */
async function textsTo(phone: string): Promise<string[]> {
  const base = new URL(shop().fakeEnv.EGOSMS_URL ?? '').origin;
  const sent = (await (await fetch(`${base}/__sent`)).json()) as {
    number: string;
    message: string;
  }[];
  return sent.filter((t) => t.number === phone.replace(/^\+/, '')).map((t) => t.message);
}

/** A shopper who said yes to offers and bought from a category of her own (the audience). */
async function fanOfCategory(tag: string) {
  const digits = String(Number.parseInt(tag, 16) % 1_000_000).padStart(6, '0');
  const phone = `+256704${digits}`;
  const shopper = await verifiedShopper(db, `Nakato Achieng`, { phone });
  await db
    .insert(userSettings)
    .values({ userId: shopper.id, marketingNotifications: true })
    .onConflictDoUpdate({ target: userSettings.userId, set: { marketingNotifications: true } });
  const [category] = await db
    .insert(categories)
    .values({ name: `Kitenge ${tag}` })
    .returning({ id: categories.id });
  const piece = await addProduct(db, {
    name: `Kitenge Wrap ${tag}`,
    price: 70_000,
    stock: 5,
    category: category?.id,
  });
  const orderId = randomUUID();
  await db.insert(orders).values({
    id: orderId,
    customerId: shopper.id,
    customerName: shopper.name,
    subtotal: 70_000,
    deliveryFee: 0,
    total: 70_000,
    paymentMethod: 'cash_on_delivery',
    status: 'delivered',
  });
  await db
    .insert(orderItems)
    .values({ orderId, productId: piece.id, name: piece.name, price: 70_000, quantity: 1 });
  return { shopper, phone, category: `Kitenge ${tag}` };
}

describe('a campaign, and the stop link its text carries', () => {
  it('the owner sends one from a phone; the shopper stops offers signed out (360 px)', async () => {
    const tag = randomUUID().slice(0, 6);
    const fan = await fanOfCategory(tag);
    const code = `KITENGE${tag.toUpperCase()}`;
    await db
      .insert(promotions)
      .values({ name: `Kitenge week ${tag}`, code, kind: 'percent', value: 15 });

    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, await deskOwner(db));
    await page.goto('/desk/campaigns');
    const form = page.getByRole('form', { name: 'New campaign' });
    await form.getByLabel('Offer').selectOption({ label: `Kitenge week ${tag} (${code})` });
    await form.getByLabel('Audience').selectOption({ label: `Those who bought ${fan.category}` });
    await form.getByLabel('Message').fill('Kitenge week: 15% off every wrap!');
    const audience = page.getByTestId('campaign-audience');
    await expect
      .poll(() => audience.textContent())
      .toContain(`1 shopper · about ${formatUGX(SMS_PART_COST_UGX)}`);
    await expect
      .poll(() => page.getByTestId('campaign-preview').textContent())
      .toMatch(
        new RegExp(
          `^duuka: Kitenge week: 15% off every wrap! Use code ${code}\\. Stop: http.*/duuka/stop/x{10}$`,
        ),
      );
    await fitsAndShoot(page, SMALL_PHONE.width, 'desk-campaign-360');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Send to 1 shopper' }).click();
    await page.getByText('Sent to 1 shopper.').waitFor();
    await page
      .getByRole('list', { name: 'Campaigns sent' })
      .getByText('Kitenge week: 15% off every wrap!')
      .first()
      .waitFor();
    expect(errors).toEqual([]);

    // The Cron Trigger sends the campaign's texts (after any order text waiting).
    let text: string | undefined;
    await expect
      .poll(
        async () => {
          await fetch(new URL('/cdn-cgi/handler/scheduled?cron=*+*+*+*+*', shop().url));
          text = (await textsTo(fan.phone)).find((t) => t.includes(code));
          return text;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBeDefined();
    const link = text?.match(/Stop: (\S+)$/)?.[1] ?? '';
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/duuka\/stop\/[a-z2-9]{10}$/);
    expect(text?.length).toBeLessThanOrEqual(160);

    // Signed out, on her phone: the page asks first (opening it changed nothing).
    const visitor = await newPage(SMALL_PHONE);
    await visitor.page.goto(path);
    await visitor.page.getByRole('heading', { name: STOP_TEXT.title }).waitFor();
    await visitor.page.getByText(STOP_TEXT.ask('Nakato')).waitFor();
    const before = await db
      .select({ on: userSettings.marketingNotifications })
      .from(userSettings)
      .where(eq(userSettings.userId, fan.shopper.id));
    expect(before[0]?.on).toBe(true);
    await fitsAndShoot(visitor.page, SMALL_PHONE.width, 'stop-link-360');
    expect(await seriousViolations(visitor.page)).toEqual([]);
    await visitor.page.getByRole('button', { name: STOP_TEXT.button }).click();
    await visitor.page.getByText(STOP_TEXT.done).waitFor();
    const after = await db
      .select({ on: userSettings.marketingNotifications })
      .from(userSettings)
      .where(eq(userSettings.userId, fan.shopper.id));
    expect(after[0]?.on).toBe(false);
    // Opened again: already off.
    await visitor.page.goto(path);
    await visitor.page.getByText(STOP_TEXT.already).waitFor();
    // A mistyped token, and another shop's name: the 404 view.
    const unknown = await visitor.page.goto('/duuka/stop/abcdefghjk');
    expect(unknown?.status()).toBe(404);
    await visitor.page.getByText(STOP_TEXT.unknown).waitFor();
    const other = await visitor.page.goto(`/another-shop/stop/${path.split('/').pop()}`);
    expect(other?.status()).toBe(404);
    expect(visitor.errors.filter((e) => !/404/.test(e))).toEqual([]);
  });

  it('the campaigns sent and the cart reminder’s switch (1366 px)', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, await deskOwner(db));
    await page.goto('/desk/campaigns');
    const sent = page.getByRole('list', { name: 'Campaigns sent' });
    await sent.getByRole('listitem').first().waitFor();
    const reminders = page.getByLabel('Send cart reminders');
    const was = await reminders.isChecked();
    await reminders.click();
    await expect.poll(() => reminders.isChecked()).toBe(!was);
    await reminders.click();
    await expect.poll(() => reminders.isChecked()).toBe(was);
    await fitsAndShoot(page, DESKTOP.width, 'desk-campaigns-1366');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
