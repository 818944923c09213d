// The desk's returns in the browser (issue 36, decision 0086), against the production build: a
// shopper asks (returns.request over HTTP, as the shop's own page sends it) to exchange M for L on
// a delivered order; the staff find it in the queue (the old /operator/returns address too),
// approve it with the rider's pickup, receive M as sellable (back in stock) and ship L, then mark
// it delivered; after each step the shopper's own order page and returns.byId say so. A refund
// to MTN Mobile Money through the fake ends Refunded. At 360 and 1366 px; screenshots in light
// and dark with E2E_SHOTS=1.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DESK_RETURN_TEXT } from '#core/desk-returns.ts';
import { RETURN_STATE_LABEL, type ReturnState } from '#core/returns.ts';
import { createDb } from '#db/client.ts';
import { orderItems, orders, payments, refunds } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { addProduct, stockOf } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/duuka';
afterAll(closeBrowser);

/** A shopper's delivered order of one piece (paid by MTN when `paid`), and its line's id. */
async function deliveredOrder(
  shopper: Shopper,
  variantId: number,
  paid?: { phone: string; amount?: number },
) {
  const placed = await placeOrder(db, shopper, {
    orderId: randomUUID(),
    lines: [{ variantId, quantity: 1 }],
    paymentMethod: paid ? 'mobile_money' : 'cash_on_delivery',
  });
  if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
  const { orderId, total } = placed.order;
  if (paid) {
    await db.insert(payments).values({
      id: randomUUID(),
      orderId,
      customerId: shopper.id,
      network: 'mtn',
      phone: paid.phone,
      amount: total,
      status: 'successful',
      transactionId: `MTN-${randomUUID().slice(0, 8)}`,
      callbackSecret: randomUUID(),
      settledAt: new Date(),
    });
  }
  // The trigger stamps delivered_at: the return window opens today.
  await db.update(orders).set({ status: 'delivered' }).where(eq(orders.id, orderId));
  const [item] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  if (!item) throw new Error('the order has no line');
  return { orderId, total, orderItemId: item.id };
}

/** A tRPC call from the shopper's own signed-in browser context (as her pages send it). */
async function asShopper(page: Page, kind: 'query' | 'mutation', path: string, input: unknown) {
  const answer =
    kind === 'query'
      ? await page.request.get(
          `/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
        )
      : await page.request.post(`/api/trpc/${path}`, {
          data: input,
          headers: { origin: shop().url },
        });
  const body = (await answer.json()) as { result?: { data: unknown }; error?: { message: string } };
  return { status: answer.status(), data: body.result?.data as Record<string, unknown>, body };
}

/** The shopper's return as she reads it (returns.byId) and her order's page saying its state. */
async function shopperSees(
  shopper: Page,
  ids: { orderId: string; returnId: string },
  state: ReturnState,
) {
  const read = await asShopper(shopper, 'query', 'returns.byId', { id: ids.returnId });
  expect(read.status).toBe(200);
  expect(read.data.status).toBe(state);
  await shopper.goto(`/order-history/${ids.orderId}`);
  await shopper
    .getByText(RETURN_STATE_LABEL[state], { exact: false })
    .first()
    .waitFor({ timeout: 15_000 });
  return read.data;
}

async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The page's width: nothing may reach past the phone's edge. */
const pageWidth = (page: Page) => page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);

const toast = (page: Page, text: string) =>
  page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();

describe('the desk’s returns', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    const w = viewport.width;
    it(`at ${w} px: an exchange of M for L approved, received and shipped; the shopper sees each step`, async () => {
      const piece = await addProduct(db, {
        name: `Busuuti Swap ${w}`,
        price: 140_000,
        options: [{ name: 'Size', values: ['M', 'L'] }],
        stock: { M: 3, L: 1 },
      });
      const M = piece.variants.M as number;
      const L = piece.variants.L as number;
      const shopper = await verifiedShopper(db, `Nakato Exchange ${w}`, {
        phone: '+256772000555',
        address: 'Plot 9 Kira Road',
      });
      const order = await deliveredOrder(shopper, M);
      expect(await stockOf(db, { variantId: M })).toBe(2);

      const buyer = await newPage(viewport);
      await signIn(buyer.page, shopper);
      const returnId = randomUUID();
      const asked = await asShopper(buyer.page, 'mutation', 'returns.request', {
        returnId,
        orderId: order.orderId,
        lines: [
          {
            orderItemId: order.orderItemId,
            quantity: 1,
            reason: 'too_small',
            exchangeVariantId: L,
          },
        ],
        resolution: 'exchange',
        note: 'Too tight at the shoulders.',
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(asked.data).toEqual({ returnId, status: 'requested' });
      // The L is held from the request.
      expect(await stockOf(db, { variantId: L })).toBe(0);
      const ids = { orderId: order.orderId, returnId };
      await shopperSees(buyer.page, ids, 'requested');

      // The staff's queue, by its old address too.
      const { page, errors } = await newPage(viewport);
      await signIn(page, await deskOwner(db));
      await page.goto('/operator/returns');
      await page.waitForURL('**/desk/returns');
      await page.getByTestId('return-chip-requested').click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'requested');
      const card = page.locator(`[data-return-id="${returnId}"]`);
      await card.waitFor();
      const cardText = await card.innerText();
      expect(cardText).toContain(shopper.name);
      expect(cardText).toContain('Exchange');
      expect(cardText).toContain('Too small');
      expect(cardText).toContain('UGX 140,000');
      if (w === SMALL_PHONE.width) expect(await pageWidth(page)).toBeLessThanOrEqual(w);
      await shoot(page, `desk-returns-queue-${w}`);

      // Approve, the rider to pick it up (its fee shown).
      await card.getByRole('link').click();
      await page.waitForURL(`**/desk/returns/${returnId}`);
      const next = page.getByTestId('return-next');
      await next.getByText('Rider picks it up').waitFor();
      await next.getByTestId('handover-pickup-note').waitFor();
      expect(await page.getByTestId('return-pieces').innerText()).toContain('For L');
      expect(await page.getByTestId('return-note').innerText()).toContain('Too tight');
      if (w === SMALL_PHONE.width) expect(await pageWidth(page)).toBeLessThanOrEqual(w);
      await shoot(page, `desk-return-requested-${w}`);
      await next.getByRole('button', { name: DESK_RETURN_TEXT.approve, exact: true }).click();
      await toast(page, DESK_RETURN_TEXT.approved);
      await expect.poll(() => page.getByTestId('return-status').innerText()).toBe('Approved');
      await shopperSees(buyer.page, ids, 'approved');

      // Receive M, sellable: back in stock.
      await next.getByRole('radio', { name: 'Can be sold again' }).check();
      await shoot(page, `desk-return-approved-${w}`);
      await next.getByRole('button', { name: DESK_RETURN_TEXT.receive }).click();
      await toast(page, DESK_RETURN_TEXT.received);
      await expect.poll(() => page.getByTestId('return-status').innerText()).toBe('Received');
      expect(await stockOf(db, { variantId: M })).toBe(3);
      await shopperSees(buyer.page, ids, 'received');

      // Ship L, then delivered.
      await next.getByRole('button', { name: DESK_RETURN_TEXT.ship }).click();
      await toast(page, DESK_RETURN_TEXT.shipped);
      await expect.poll(() => page.getByTestId('return-status').innerText()).toBe('Exchanged');
      await next.getByText('Out for delivery').waitFor();
      const shipped = await shopperSees(buyer.page, ids, 'exchanged');
      expect(shipped.exchangeStatus).toBe('out_for_delivery');
      await next.getByRole('button', { name: DESK_RETURN_TEXT.delivered }).click();
      await toast(page, DESK_RETURN_TEXT.deliveredDone);
      await next.getByText(DESK_RETURN_TEXT.closed).waitFor();
      const delivered = await shopperSees(buyer.page, ids, 'exchanged');
      expect(delivered.exchangeStatus).toBe('delivered');
      // Each decision in the return's record.
      const record = page.getByTestId('return-record');
      await expect.poll(() => record.locator('li[data-action]').count()).toBeGreaterThanOrEqual(3);
      if (w === SMALL_PHONE.width) expect(await pageWidth(page)).toBeLessThanOrEqual(w);
      await shoot(page, `desk-return-exchanged-${w}`);
      await shoot(buyer.page, `shopper-return-exchanged-${w}`);

      // The order's page lists the return, a link to it.
      await page.goto(`/desk/orders/${order.orderId}`);
      const listed = page.getByTestId('order-return');
      await listed.waitFor();
      expect(await listed.getAttribute('href')).toBe(`/desk/returns/${returnId}`);
      expect(await listed.innerText()).toContain('Exchanged');

      expect(errors).toEqual([]);
      await buyer.page.context().close();
      await page.context().close();
    });
  }

  it('at 360 px: a refund to MTN Mobile Money through the fake ends Refunded', async () => {
    const piece = await addProduct(db, { name: 'Refund Kaftan', price: 95_000, stock: 4 });
    const shopper = await verifiedShopper(db, 'Achieng Refund', {
      phone: '+256772000551',
      address: 'Plot 2 Ntinda',
    });
    const order = await deliveredOrder(shopper, piece.variantId, { phone: '+256772000551' });
    const buyer = await newPage(SMALL_PHONE);
    await signIn(buyer.page, shopper);
    const returnId = randomUUID();
    const asked = await asShopper(buyer.page, 'mutation', 'returns.request', {
      returnId,
      orderId: order.orderId,
      lines: [{ orderItemId: order.orderItemId, quantity: 1, reason: 'changed_mind' }],
      resolution: 'refund',
      refundTo: 'original',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);

    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, await deskOwner(db));
    await page.goto(`/desk/returns/${returnId}`);
    const next = page.getByTestId('return-next');
    await next.getByRole('radio', { name: /Drop-off at the shop/ }).check();
    await next.getByRole('button', { name: DESK_RETURN_TEXT.approve, exact: true }).click();
    await toast(page, DESK_RETURN_TEXT.approved);
    await next.getByRole('button', { name: DESK_RETURN_TEXT.receive }).click();
    await toast(page, DESK_RETURN_TEXT.received);

    // The refund goes to MTN through the fake; the page follows it to its end.
    const refund = page.getByTestId('return-refund').first();
    await refund.waitFor();
    expect(await refund.innerText()).toContain('MTN Mobile Money');
    // The Cron Trigger's sweep reads MTN's answer (a number ending in 1 is paid): each call
    // stands for the next minute's run (the sweep reads a sent refund once a minute).
    await expect
      .poll(
        async () => {
          await db.update(refunds).set({ checkedAt: null }).where(eq(refunds.returnId, returnId));
          await fetch(new URL('/cdn-cgi/handler/scheduled?cron=*+*+*+*+*', shop().url));
          return refund.getAttribute('data-status');
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toBe('succeeded');
    await refund.getByTestId('refund-status').getByText('Refunded').waitFor();
    await expect.poll(() => page.getByTestId('return-status').innerText()).toBe('Refunded');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await shoot(page, 'desk-return-refunded-360');
    await shopperSees(buyer.page, { orderId: order.orderId, returnId }, 'refunded');
    expect(errors).toEqual([]);
    await buyer.page.context().close();
    await page.context().close();
  });
});
