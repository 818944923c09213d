// Delivery on the desk in the browser (issue 23), against the production build, at 360 and 1366 px:
// the owner changes upcountry's fee, adds a Kampala zone and a free-delivery threshold, and what a
// visitor's checkout is offered changes at once; a bad fee keeps what was typed; staff read the
// page and are refused a save; the desk sends an order out with its rider. axe clean in light
// and dark on each screen.
import { randomUUID } from 'node:crypto';
import { eq, notInArray, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '#core/desk-roles.ts';
import { createDb } from '#db/client.ts';
import { deliveryOptions, orders, systemSettings } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { setRole } from '#server/services/staff-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import {
  deskOwner,
  type Shopper,
  sessionCookie,
  signIn,
  verifiedShopper,
} from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const shopUrl = shop().url;
const SHOTS = '/tmp/duuka-b';
const DEFAULTS = ['kampala', 'pickup', 'upcountry'];

/** The browser tests share one shop: delivery goes back to the migration's defaults. */
async function defaults() {
  await db.batch([
    db
      .update(deliveryOptions)
      .set({ fee: 15_000, active: true, position: 3 })
      .where(eq(deliveryOptions.id, 'upcountry')),
    db
      .update(deliveryOptions)
      .set({ active: false })
      .where(notInArray(deliveryOptions.id, DEFAULTS)),
    db.delete(systemSettings).where(eq(systemSettings.settingKey, 'free_delivery_over')),
    bumpCatalogueVersion(db),
  ]);
  // Zones this test added and no order names go; one an order names stays retired.
  await db.execute(sql`delete from delivery_options d where d.id not in ('kampala', 'pickup', 'upcountry')
    and not exists (select 1 from orders o where o.delivery_option_id = d.id)`);
}

let owner: Shopper;
beforeAll(async () => {
  owner = await deskOwner(db);
  await defaults();
});
afterAll(async () => {
  await defaults();
  await closeBrowser();
});

async function shotsAndAxe(page: Page, name: string) {
  // From the top: a sticky part of the page is shown where it starts.
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

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

type Choices = {
  options: { id: string; name: string; fee: number }[];
  freeDeliveryOver: number | null;
};

/** What a visitor's checkout is offered (checkout.deliveryOptions, as the browser asks). */
async function offered(): Promise<Choices> {
  const answer = await fetch(new URL('/api/trpc/checkout.deliveryOptions', shopUrl));
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { result: { data: Choices } }).result.data;
}

describe('delivery on the desk', () => {
  for (const [viewport, zone, fee, upcountry, threshold] of [
    [SMALL_PHONE, 'Nakawa', '7,000', '20000', '150000'],
    [DESKTOP, 'Kawempe', '8000', '25,000', '200,000'],
  ] as const) {
    it(`the owner's save is what a visitor's checkout offers at once (${viewport.width} px)`, async () => {
      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      await page.goto('/desk/delivery');
      const card = (name: string) => page.getByRole('group', { name, exact: true });
      await card('Upcountry by bus courier').getByLabel('Fee (UGX)').fill(upcountry);
      await page.getByRole('button', { name: 'Add a Kampala zone' }).click();
      const added = card('New Kampala zone');
      await added.getByLabel('Name').fill(zone);
      // A fee that is not a number: refused before sending, with what was typed kept.
      await added.getByLabel('Fee (UGX)').fill('seven');
      await page.getByLabel('Free delivery over (UGX)').fill(threshold);
      await page.getByRole('button', { name: 'Save delivery' }).click();
      await page
        .getByText(`${zone}: Fee must be a whole number of shillings, from 0 to 1,000,000.`)
        .waitFor();
      await expect(added.getByLabel('Name').inputValue()).resolves.toBe(zone);
      await expect(
        card('Upcountry by bus courier').getByLabel('Fee (UGX)').inputValue(),
      ).resolves.toBe(upcountry);
      await added.getByLabel('Fee (UGX)').fill(fee);
      await added.getByLabel('Details').fill(`By boda within ${zone} division.`);
      await page.getByRole('button', { name: 'Save delivery' }).click();
      await page.getByText('Delivery saved').first().waitFor();
      // The new form: the zone under its own name now, the promise with the threshold.
      await card(zone).waitFor();
      const amount = (text: string) => Number(text.replace(/,/g, ''));
      await expect(page.getByTestId('delivery-promise').textContent()).resolves.toContain(
        `free delivery over UGX ${amount(threshold).toLocaleString('en-US')}`,
      );

      const choices = await offered();
      expect(choices.freeDeliveryOver).toBe(amount(threshold));
      expect(choices.options.find((o) => o.id === 'upcountry')?.fee).toBe(amount(upcountry));
      expect(choices.options.find((o) => o.name === zone)?.fee).toBe(amount(fee));

      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-delivery-${viewport.width}`);
      expect(errors).toEqual([]);
    });
  }

  it('staff read delivery and are refused a save', async () => {
    const sam = await verifiedShopper(db, 'Sam Ssali');
    await setRole(db, sam.email, 'staff');
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, sam);
    await page.goto('/desk/delivery');
    await page.getByText('only the shop’s owner changes them').waitFor();
    const fee = page
      .getByRole('group', { name: 'Upcountry by bus courier', exact: true })
      .getByLabel('Fee (UGX)');
    await expect(fee.isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Save delivery' }).count()).resolves.toBe(0);
    // Staff still reach Delivery from the desk's menu (under More on a phone).
    await page.getByTestId('desk-bottom-bar').getByRole('button', { name: 'More' }).click();
    await page
      .getByRole('dialog', { name: 'More of the desk' })
      .getByRole('link', { name: 'Delivery', exact: true })
      .waitFor();
    await page.keyboard.press('Escape');
    await fitsWidth(page, SMALL_PHONE.width);
    await shotsAndAxe(page, 'desk-delivery-staff-360');

    const before = await offered();
    const answer = await fetch(new URL('/api/trpc/desk.saveDeliveryOptions', shopUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: shopUrl,
        cookie: await sessionCookie(sam),
      },
      body: JSON.stringify({
        requestKey: randomUUID(),
        options: [
          {
            id: 'upcountry',
            kind: 'courier',
            name: 'Upcountry by bus courier',
            fee: 1,
            minDays: 3,
            maxDays: 5,
            details: '',
            cashOnDelivery: false,
            active: true,
          },
        ],
        freeDeliveryOver: null,
      }),
    });
    expect(answer.status).toBe(403);
    expect(JSON.stringify(await answer.json())).toContain(DESK_TEXT.ownerOnly);
    expect(await offered()).toEqual(before);
    expect(errors).toEqual([]);
  });
});

describe('the order’s way on the desk', () => {
  // The desk's orders list every order the suite has placed by now: each axe check and full-page
  // picture of it takes seconds on a busy 2-core machine (39 s alone, over 60 s in CI).
  it('shows each order’s delivery, and sends a Kampala order out with its rider', {
    timeout: 150_000,
  }, async () => {
    const shopper = await verifiedShopper(db, 'Grace Nansubuga', { phone: '+256772123459' });
    const piece = await demoPiece(db, { minStock: 6 });
    const place = async (optionId: string) => {
      const placed = await placeOrder(db, shopper, {
        orderId: randomUUID(),
        lines: [{ variantId: piece.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
        delivery:
          optionId === 'pickup'
            ? { optionId }
            : {
                optionId,
                area: 'Ntinda',
                landmark: 'Opposite Capital Shoppers, blue gate',
                // As checkout.placeOrder stores it (its input makes it +256…).
                phone: '+256701234567',
                notes: 'Call when at the gate.',
              },
      });
      if (!placed.ok) throw new Error('order refused');
      return placed.order.orderId;
    };
    const pickupId = await place('pickup');

    for (const [viewport, rider] of [
      [SMALL_PHONE, 'Okello'],
      [DESKTOP, 'Nsubuga'],
    ] as const) {
      const orderId = await place('kampala');
      const head = orderId.slice(0, 8);
      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      // Each order's own page (issue 34): its select offers only what fits the order's kind.
      const kinds = async (of: string) => {
        const select = page
          .getByTestId('status-control')
          .getByLabel(`Status of order ${of.slice(0, 8)}`);
        // The page reads its order after it loads: wait for its select.
        await select.waitFor();
        return select
          .locator('option')
          .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));
      };
      await page.goto(`/desk/orders/${pickupId}`);
      await expect(kinds(pickupId)).resolves.toEqual([
        'pending',
        'processing',
        'ready_for_pickup',
        'collected',
        'completed',
        'cancelled',
      ]);
      await page.goto(`/desk/orders/${orderId}`);
      const view = page.getByTestId('desk-order');
      const row = view.getByTestId('delivery');
      await row.getByText('Opposite Capital Shoppers, blue gate').waitFor();
      await expect(
        row.getByRole('link', { name: '0701 234 567' }).getAttribute('href'),
      ).resolves.toBe('tel:+256701234567');
      await row.getByText('Call when at the gate.').waitFor();
      await expect(kinds(orderId)).resolves.toEqual([
        'pending',
        'processing',
        'out_for_delivery',
        'delivered',
        'completed',
        'cancelled',
      ]);
      const control = view.getByTestId('status-control');
      await control.getByLabel(`Status of order ${head}`).selectOption('out_for_delivery');
      await control.getByRole('button', { name: 'Update' }).click();
      await control.getByText('Enter the rider’s name and phone').waitFor();
      await control.getByLabel("Rider's name").fill(rider);
      await control.getByLabel("Rider's phone").fill('0772 123 456');
      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-orders-rider-${viewport.width}`);
      await control.getByRole('button', { name: 'Update' }).click();
      await row.getByText(rider).waitFor();
      await expect(
        row.getByRole('link', { name: '0772 123 456' }).getAttribute('href'),
      ).resolves.toBe('tel:+256772123456');
      const [stored] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(stored).toMatchObject({
        status: 'out_for_delivery',
        riderName: rider,
        riderPhone: '+256772123456',
      });
      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-orders-${viewport.width}`);
      expect(errors).toEqual([]);
    }
  });
});
