// Gift cards and store credit in the browser (issue 35), against the production build, the fake
// mobile-money provider and the fake EgoSMS gateway: a shopper buys a gift card from /gift-cards
// and pays by mobile money; the recipient's text arrives with a code whose hash is what the shop
// keeps, and she spends it at her checkout; the desk sees the card and grants credit, which the shopper reads on her profile. At
// 360 px and 1366 px.
import { mkdirSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { giftCardHash } from '#core/gift-cards.ts';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { formatUGX } from '#core/money.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';
import { CREDIT_TEXT, GIFT_CARD_TEXT } from '#core/value-ledger.ts';
import { createDb } from '#db/client.ts';
import { cartItems, orders, smsNotifications, valueAccounts } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { demoPieces, setStock } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka-gift';
mkdirSync(SHOTS, { recursive: true });

/** What the fake gateway accepted, to this number (+256…). */
async function textsTo(number: string): Promise<{ message: string }[]> {
  const base = new URL(shop().fakeEnv.EGOSMS_URL ?? '').origin;
  const sent = (await (await fetch(`${base}/__sent`)).json()) as {
    number: string;
    message: string;
  }[];
  return sent.filter((text) => text.number === number.replace(/^\+/, ''));
}

const CODE = /GIFT-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/;

describe('gift cards', () => {
  it('a visitor sees the amounts and is asked to sign in to buy (360 px)', async () => {
    const { page, errors } = await newPage(SMALL_PHONE);
    await page.goto('/gift-cards');
    await page.getByRole('radio', { name: 'UGX 200,000' }).waitFor({ state: 'attached' });
    await page.getByText(GIFT_CARD_TEXT.signIn).waitFor();
    expect(await page.getByRole('button', { name: /Buy a/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  for (const [label, viewport, recipient] of [
    ['desktop', DESKTOP, '+256772000961'],
    ['phone', SMALL_PHONE, '+256772000962'],
  ] as const) {
    it(`a shopper buys one, pays by mobile money, and the recipient is texted its code (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Nakato Achieng', { phone: '+256772000001' });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/gift-cards');
      // The footer and /shop lead here.
      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: 'Gift cards' })
        .and(page.locator('[href="/gift-cards"]'))
        .waitFor();
      await page.getByRole('heading', { level: 1, name: 'Give a duuka gift card' }).waitFor();
      await page.getByText('UGX 50,000', { exact: true }).click();
      await expect
        .poll(() => page.getByRole('radio', { name: 'UGX 50,000' }).isChecked())
        .toBe(true);
      await page.getByLabel(GIFT_CARD_TEXT.recipientName).fill('Amina Nalule');
      await page.getByLabel(GIFT_CARD_TEXT.recipientPhone).fill(`0${recipient.slice(4)}`);
      await page.getByLabel(GIFT_CARD_TEXT.message).fill('Happy birthday, sister!');
      await page.getByRole('radio', { name: 'Mobile Money' }).check();
      await page.getByLabel(PAYMENT_TEXT.payerNumber).fill('0772 000 001');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await page.screenshot({ path: `${SHOTS}/gift-card-form-${label}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: GIFT_CARD_TEXT.buy(50_000) }).click();
      await page
        .getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.waitingTitle })
        .waitFor();
      await page.getByRole('heading', { name: PAYMENT_TEXT.approve(50_000) }).waitFor();
      await page.screenshot({ path: `${SHOTS}/gift-card-approve-${label}.png`, fullPage: true });
      // The fake approves after ~3 s.
      await page.getByText(PAYMENT_TEXT.paid).first().waitFor({ timeout: 20_000 });
      await page.waitForURL('**/orders?order=*');

      const [order] = await db.select().from(orders).where(eq(orders.customerId, shopper.id));
      expect(order).toMatchObject({
        total: 50_000,
        deliveryFee: 0,
        deliveryOption: 'Sent by text',
      });
      await expect.poll(async () => (await textsTo(recipient)).length, { timeout: 15_000 }).toBe(1);
      const [text] = await textsTo(recipient);
      expect(text?.message).toContain('Nakato sent you a UGX 50,000 gift card');
      const code = text?.message.match(CODE)?.[0] ?? '';
      const [card] = await db
        .select()
        .from(valueAccounts)
        .where(eq(valueAccounts.orderId, order?.id ?? ''));
      expect(card?.codeHash).toBe(await giftCardHash(code));
      expect(card?.balance).toBe(50_000);
      // Sent: the shop's outbox keeps only the last 4, like the ledger.
      const [kept] = await db
        .select({ message: smsNotifications.messageContent, status: smsNotifications.status })
        .from(smsNotifications)
        .where(
          and(
            eq(smsNotifications.orderId, order?.id ?? ''),
            eq(smsNotifications.kind, 'gift-card'),
          ),
        );
      expect(kept?.status).toBe('sent');
      expect(kept?.message).not.toContain(code);
      expect(kept?.message).toContain(`GIFT-XXXX-XXXX-${code.slice(-4)}`);
      await page.screenshot({ path: `${SHOTS}/gift-card-paid-${label}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await page.context().close();

      // The recipient spends it: the code typed at her checkout pays the order from the card.
      const piece = (await demoPieces(db, 1, 12))[label === 'phone' ? 10 : 11];
      if (!piece) throw new Error('the demo catalogue has pieces in one size in stock');
      await setStock(db, piece.variantId, 5);
      const amina = await verifiedShopper(db, `Amina ${label}`, { phone: recipient });
      await db
        .insert(cartItems)
        .values({ userId: amina.id, variantId: piece.variantId, quantity: 1 });
      const spend = await newPage(viewport);
      await signIn(spend.page, amina);
      await spend.page.goto('/checkout');
      await spend.page.getByLabel('Discount or gift card code').fill(code.toLowerCase());
      await spend.page.getByRole('button', { name: 'Apply', exact: true }).click();
      const due = piece.price + 5000;
      const spent = Math.min(due, 50_000);
      await spend.page
        .getByTestId('summary-credit')
        .getByText(`−${formatUGX(spent)}`)
        .waitFor();
      await expect
        .poll(() => spend.page.getByTestId('summary-total').textContent())
        .toBe(formatUGX(due - spent));
      await fillDeliveryArea(spend.page);
      if (due > spent) await spend.page.getByRole('radio', { name: /Cash on Delivery/ }).check();
      await spend.page.screenshot({
        path: `${SHOTS}/gift-card-spend-${label}.png`,
        fullPage: true,
      });
      await spend.page.getByRole('button', { name: 'Place Order' }).click();
      await spend.page.waitForURL((url) => url.pathname === '/orders');
      const [placed] = await db.select().from(orders).where(eq(orders.customerId, amina.id));
      expect(placed).toMatchObject({ credit: spent, total: due - spent });
      const [after] = await db
        .select({ balance: valueAccounts.balance })
        .from(valueAccounts)
        .where(eq(valueAccounts.orderId, order?.id ?? ''));
      expect(after?.balance).toBe(50_000 - spent);
      expect(spend.errors).toEqual([]);
      await spend.page.context().close();
    });
  }

  for (const [label, viewport] of [
    ['phone', SMALL_PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`the desk sees the cards and grants credit; the shopper reads it on her profile (${label})`, async () => {
      const owner = await deskOwner(db);
      // Each run's own reason: the desk lists every account's entries.
      const reason = `Sorry for the late delivery (${label})`;
      const shopper = await verifiedShopper(db, 'Achan Grace', { phone: '+256772000963' });
      const desk = await newPage(viewport);
      await signIn(desk.page, owner);
      await desk.page.goto('/desk/credit');
      await desk.page.getByRole('heading', { level: 1, name: CREDIT_TEXT.deskTitle }).waitFor();
      await desk.page.getByTestId('gift-cards').getByText('For Amina Nalule').first().waitFor();
      await desk.page.getByLabel('Shopper’s email').fill(shopper.email);
      await desk.page.getByLabel(/^Amount/).fill('25,000');
      await desk.page.getByLabel('Reason').fill(reason);
      await desk.page.getByRole('button', { name: CREDIT_TEXT.grant }).click();
      await desk.page.getByText(CREDIT_TEXT.granted(25_000, shopper.email)).waitFor();
      await desk.page.getByTestId('credit-accounts').getByText(reason).waitFor();
      expect(
        await desk.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await desk.page.screenshot({ path: `${SHOTS}/desk-credit-${label}.png`, fullPage: true });
      expect(await seriousViolations(desk.page)).toEqual([]);
      expect(desk.errors).toEqual([]);

      const own = await newPage(viewport);
      await signIn(own.page, shopper);
      await own.page.goto('/profile');
      await own.page.getByTestId('credit-balance').getByText(CREDIT_TEXT.balance(25_000)).waitFor();
      await own.page.getByText(reason).waitFor();
      await own.page.screenshot({ path: `${SHOTS}/profile-credit-${label}.png`, fullPage: true });
      expect(own.errors).toEqual([]);
    });
  }
});
