// The desk's order book in the browser (issue 34; decision 0074), at 360 px and 1366 px, against
// the production build: a shopper places an order; the owner types the customer's phone number as
// a person would (0772 123 456), sees that order alone, taps a chip and sees its count match the
// rows, and the row links to the order's page; the search stays in the address (Back keeps it);
// nothing is wider than the screen; light and dark pass axe.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

async function shotsAndAxe(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page, `${name} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

/** A number no other test uses: +2567XXXXXXXX, and as a person types it, 07XX XXX XXX. */
function freshPhone() {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const local = `07${digits}`;
  return {
    stored: `+2567${digits}`,
    typed: `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`,
  };
}

describe('the desk’s order book', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`finds a customer’s order by phone, counts it by chip, links to it (${viewport.width} px)`, async () => {
      const owner = await deskOwner(db);
      const phone = freshPhone();
      const customer = await verifiedShopper(db, 'Amara Nansubuga', { phone: phone.stored });
      const piece = await demoPiece(db, { minStock: 4 });
      const buyer = await newPage(DESKTOP);
      await signIn(buyer.page, customer);
      const orderId = randomUUID();
      const placed = await buyer.page.request.post('/api/trpc/checkout.placeOrder', {
        data: {
          orderId,
          items: [{ variantId: piece.variantId, quantity: 1 }],
          paymentMethod: 'bank_transfer',
          deliveryOptionId: 'pickup',
        },
      });
      expect(placed.status()).toBe(200);
      await buyer.page.context().close();

      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      await page.goto('/desk/orders');
      const book = page.getByTestId('order-book');
      await book.getByTestId('order-book-list').waitFor();
      const rows = book.getByTestId('order-book-row');

      await book.getByTestId('order-book-search').fill(phone.typed);
      // The search reaches the address, and the list holds that order alone.
      await page.waitForURL((url) => url.searchParams.get('q') === phone.typed);
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      const row = rows.first();
      expect(await row.getAttribute('data-order-id')).toBe(orderId);
      await row.getByText('Amara Nansubuga').waitFor();
      await row.getByText(phone.typed).waitFor();
      expect(await row.getByRole('link').getAttribute('href')).toBe(`/desk/orders/${orderId}`);
      await row.getByText('Not paid').waitFor();

      // The chips count within the search: all 1, to confirm 1 (a bank transfer), pending 1.
      const chip = (key: string) => book.getByTestId(`order-chip-${key}`);
      const countOf = async (key: string) =>
        (await chip(key).getByTestId('order-chip-count').textContent())?.trim();
      await expect.poll(() => countOf('all')).toBe('1');
      expect(await chip('all').getAttribute('aria-pressed')).toBe('true');
      expect(await countOf('to_confirm')).toBe('1');
      expect(await countOf('pending')).toBe('1');
      expect(await countOf('cancelled')).toBe('0');

      await chip('to_confirm').click();
      await page.waitForURL((url) => url.searchParams.get('queue') === 'to_confirm');
      await expect.poll(() => chip('to_confirm').getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => rows.count()).toBe(Number(await countOf('to_confirm')));
      expect(await rows.first().getAttribute('data-order-id')).toBe(orderId);

      await chip('cancelled').click();
      await book.getByTestId('order-book-empty').waitFor();
      expect(await book.getByTestId('order-book-empty').textContent()).toBe(
        `No orders match “${phone.typed}”`,
      );
      expect(await rows.count()).toBe(Number(await countOf('cancelled')));
      await fitsWidth(page, viewport.width);

      // Back: the chip before, the search still there.
      await page.goBack();
      await expect.poll(() => chip('to_confirm').getAttribute('aria-pressed')).toBe('true');
      expect(await book.getByTestId('order-book-search').inputValue()).toBe(phone.typed);
      await expect.poll(() => rows.count()).toBe(1);
      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-order-book-${viewport.width}`);

      // Opened from its row: the order's page, its packing slip a PDF to print; the book's
      // accountant's file a CSV holding it.
      await rows.first().getByRole('link').click();
      await page.waitForURL((url) => url.pathname === `/desk/orders/${orderId}`);
      const slip = page.getByTestId('quick-actions').getByTestId('packing-slip');
      const printed = await page.request.get((await slip.getAttribute('href')) ?? '');
      expect(printed.status()).toBe(200);
      expect(printed.headers()['content-type']).toBe('application/pdf');
      await page.goBack();
      await book.getByTestId('order-book-list').waitFor();
      const file = await page.request.get(
        (await page.getByTestId('orders-file').getAttribute('href')) ?? '',
      );
      expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
      expect(await file.text()).toContain(orderId);

      // The whole book, unsearched: the chips scroll within the screen, the page does not.
      await page.goto('/desk/orders');
      await book.getByTestId('order-book-list').waitFor();
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-order-book-all-${viewport.width}`);
      expect(errors).toEqual([]);
    });
  }

  it('says clearly when the address asks for nothing that can be read', async () => {
    const owner = await deskOwner(db);
    const { page } = await newPage(SMALL_PHONE);
    await signIn(page, owner);
    // A broken filter in a link is dropped, not an error page.
    await page.goto('/desk/orders?status=nonsense&paid=maybe&from=2026-02-31');
    await page.getByTestId('order-book-list').waitFor();
    expect(await page.getByTestId('order-chip-all').getAttribute('aria-pressed')).toBe('true');
  });
});
