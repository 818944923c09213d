// Paying by mobile money in the browser, against the production build in workerd and the fake MTN
// and Airtel servers (local/fakes/mobile-money-fake.ts, approving after ~3 s): checkout → the approval
// screen → paid, with the transaction id on the receipt; a declined number with its reason, Try
// again and another method; Retry payment from /orders. At phone and desktop widths.
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import { PAYMENT_STATE_TEXT } from '#core/payment-states.ts';
import { createDb } from '#db/client.ts';
import { cartItems, orders, payments } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

/** A shopper with this phone and one piece (in stock) in their cart; the order's total. */
async function shopperWithCart(name: string, phone: string, skip: number) {
  const shopper = await verifiedShopper(db, name, { phone, address: 'Plot 3 Acacia Avenue' });
  const piece = await demoPiece(db, { minStock: 6, skip: skip });
  await db
    .insert(cartItems)
    .values({ userId: shopper.id, variantId: piece.variantId, quantity: 1 });
  return { shopper, total: piece.price + 5000 };
}

const latestOrder = async (shopper: Shopper) =>
  (await db.select().from(orders).where(eq(orders.customerId, shopper.id)))[0];

describe('paying by mobile money', () => {
  for (const [label, viewport, skip] of [
    ['desktop', DESKTOP, 0],
    ['phone', PHONE, 1],
  ] as const) {
    it(`pays on an approving number: approval screen, then paid with the transaction id on the receipt (${label})`, async () => {
      const { shopper, total } = await shopperWithCart('Grace Atim', '+256772000001', skip);
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/checkout');
      await fillDeliveryArea(page);
      await page.getByRole('radio', { name: /Mobile Money/ }).check();
      const number = page.getByLabel(PAYMENT_TEXT.payerNumber);
      await expect.poll(() => number.inputValue()).toBe('0772 000 001');
      await page.getByText('MTN Mobile Money', { exact: true }).waitFor();
      await page.screenshot({ path: `${SHOTS}/mm-checkout-${label}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Place Order' }).click();
      // Placed, not paid yet: the page says so, and no success toast shows before the money.
      await page
        .getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.waitingTitle })
        .waitFor();
      await page.getByRole('heading', { name: PAYMENT_TEXT.approve(total) }).waitFor();
      await page.getByText('is sending a prompt to 0772 000 001').waitFor();
      await page.getByText(PAYMENT_TEXT.waiting).waitFor();
      expect(await page.getByText(CHECKOUT_TEXT.placed).count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/mm-approve-${label}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      // The heading follows the payment (issue 32): every frame painted while "Payment received"
      // shows, the page's heading says so too, never "waiting for your payment".
      await page.evaluate((paid) => {
        const seen: string[] = [];
        Object.assign(window, { headingsOverPaid: seen });
        const look = () => {
          if (document.getElementById('payment-title')?.textContent === paid) {
            seen.push(document.querySelector('h1')?.textContent ?? '');
          }
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }, PAYMENT_TEXT.paid);

      // The fake approves after ~3 s; only then the success toast, and the order on /orders.
      await page.getByText(CHECKOUT_TEXT.placed).first().waitFor({ timeout: 20_000 });
      await page.getByText(PAYMENT_TEXT.paid).first().waitFor();
      await page.waitForURL('**/orders?order=*');
      const headings = await page.evaluate(
        () => (window as unknown as { headingsOverPaid: string[] }).headingsOverPaid,
      );
      expect(headings.length).toBeGreaterThan(0);
      expect([...new Set(headings)]).toEqual([PAYMENT_STATE_TEXT.paidTitle]);
      const order = await latestOrder(shopper);
      expect(order).toMatchObject({ status: 'processing', total, paymentMethod: 'mobile_money' });
      const [payment] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.orderId, order?.id ?? ''), eq(payments.status, 'successful')));
      expect(payment?.amount).toBe(total);
      expect(payment?.transactionId).toMatch(/^\d{10}$/);

      await page.goto(`/orders?order=${order?.id}`);
      const details = page.getByRole('region', { name: 'Order details' });
      await details.getByText('Processing').first().waitFor();
      const paid = details.getByTestId('order-payment');
      await paid
        .getByRole('heading', { name: PAYMENT_STATE_TEXT.paidWith('Mobile Money') })
        .waitFor();
      await paid.getByText(payment?.transactionId ?? 'none').waitFor();
      await expect(
        details.getByRole('button', { name: PAYMENT_TEXT.retryPayment }).count(),
      ).resolves.toBe(0);
      await page.getByRole('tab', { name: 'Receipt' }).click();
      await page
        .getByText(payment?.transactionId ?? 'none')
        .first()
        .waitFor();
      await page.screenshot({ path: `${SHOTS}/mm-receipt-${label}.png`, fullPage: true });
      expect(errors).toEqual([]);
    });
  }

  it('a declined number: the reason in plain words, Try again on another number, then paid', async () => {
    const { shopper, total } = await shopperWithCart('Brian Okello', '+256772000001', 2);
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, shopper);
    await page.goto('/checkout');
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Mobile Money/ }).check();
    const number = page.getByLabel(PAYMENT_TEXT.payerNumber);
    // A number of no supported network is refused before any order is made.
    await number.fill('0712 000 002');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText(PAYMENT_TEXT.invalidNumber).waitFor();
    expect(await latestOrder(shopper)).toBeUndefined();

    await number.fill('0752 000 002');
    await page.getByText('Airtel Money', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: PAYMENT_TEXT.approve(total) }).waitFor();
    await page.getByText(PAYMENT_TEXT.reasons.declined).waitFor({ timeout: 20_000 });
    // Declined: the page's heading no longer says it waits (issue 32).
    await page.getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.notPaidTitle }).waitFor();
    await page.getByRole('button', { name: PAYMENT_TEXT.tryAgain }).waitFor();
    await page.getByRole('button', { name: PAYMENT_TEXT.chooseAnother }).waitFor();
    await page.screenshot({ path: `${SHOTS}/mm-declined-desktop.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect((await latestOrder(shopper))?.status).toBe('pending');

    await page.getByLabel(PAYMENT_TEXT.payerNumber).fill('0752 000 001');
    await page.getByRole('button', { name: PAYMENT_TEXT.tryAgain }).click();
    await page.getByRole('heading', { name: PAYMENT_TEXT.approve(total) }).waitFor();
    await page.getByRole('heading', { level: 1, name: PAYMENT_STATE_TEXT.waitingTitle }).waitFor();
    await page.waitForURL('**/orders?order=*', { timeout: 20_000 });
    const order = await latestOrder(shopper);
    expect(order?.status).toBe('processing');
    const rows = await db
      .select()
      .from(payments)
      .where(eq(payments.orderId, order?.id ?? ''));
    expect(rows.map((r) => [r.phone, r.status]).sort()).toEqual([
      ['+256752000001', 'successful'],
      ['+256752000002', 'failed'],
    ]);
    expect(errors).toEqual([]);
  });

  it('not enough funds, then another method; an unpaid order offers Retry payment on /orders', async () => {
    const { shopper, total } = await shopperWithCart('Aisha Namutebi', '+256772000003', 3);
    const { page, errors } = await newPage(PHONE);
    await signIn(page, shopper);
    await page.goto('/checkout');
    await fillDeliveryArea(page);
    await page.getByRole('radio', { name: /Mobile Money/ }).check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText(PAYMENT_TEXT.reasons['not-enough-funds']).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/mm-no-funds-phone.png`, fullPage: true });

    // Not now: /orders tells the same reason, with Try again, which asks the phone again.
    await page.goto(`/orders?order=${(await latestOrder(shopper))?.id}`);
    const details = page.getByRole('region', { name: 'Order details' });
    await details.getByText(PAYMENT_TEXT.reasons['not-enough-funds']).waitFor();
    await details.getByRole('button', { name: PAYMENT_TEXT.tryAgain }).click();
    await details.getByText(PAYMENT_TEXT.reasons['not-enough-funds']).waitFor({ timeout: 20_000 });
    await details.getByRole('button', { name: PAYMENT_TEXT.chooseAnother }).click();
    await details.getByRole('radio', { name: 'Cash on Delivery' }).check();
    await details.getByRole('button', { name: 'Pay with Cash on Delivery' }).click();
    await page.getByText(PAYMENT_TEXT.methodChanged).waitFor();
    await details.getByText('Cash on Delivery').first().waitFor();
    await details
      .getByTestId('order-payment')
      .getByRole('heading', { name: PAYMENT_STATE_TEXT.payOnDelivery })
      .waitFor();
    expect(await latestOrder(shopper)).toMatchObject({
      paymentMethod: 'cash_on_delivery',
      status: 'pending',
      total,
    });
    for (const again of [PAYMENT_TEXT.retryPayment, PAYMENT_TEXT.tryAgain]) {
      await expect(details.getByRole('button', { name: again }).count()).resolves.toBe(0);
    }
    await page.screenshot({ path: `${SHOTS}/mm-other-method-phone.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('MTN’s callback alone settles a payment in the Worker; the callback routes answer nothing else', async () => {
    const { shopper, total } = await shopperWithCart('Peter Mugisha', '+256782000001', 4);
    const { page } = await newPage(DESKTOP);
    await signIn(page, shopper);
    const [line] = await db.select().from(cartItems).where(eq(cartItems.userId, shopper.id));
    const orderId = crypto.randomUUID();
    const placed = await page.request.post('/api/trpc/checkout.placeOrder', {
      data: {
        orderId,
        items: [{ variantId: line?.variantId, quantity: 1 }],
        paymentMethod: 'mobile_money',
      },
    });
    expect(placed.status()).toBe(200);
    const started = await page.request.post('/api/trpc/payments.start', { data: { orderId } });
    expect(started.status()).toBe(200);
    // Nobody asks for the status (no page, no cron locally): only the fake's callback can do it.
    await expect
      .poll(async () => (await latestOrder(shopper))?.status, { timeout: 15_000, interval: 250 })
      .toBe('processing');
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ status: 'successful', amount: total });

    const forged = await page.request.put(`/api/payments/mtn/${payment?.id}/${'x'.repeat(32)}`, {
      data: { status: 'SUCCESSFUL' },
    });
    expect(forged.status()).toBe(200);
    expect(await forged.json()).toEqual({ received: true });
    expect((await page.request.get('/api/payments/airtel')).status()).toBe(405);
  });
});
