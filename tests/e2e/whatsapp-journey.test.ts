// A sale that starts on WhatsApp (issue 37), end to end in the browser against the production
// build and the local fakes: a shopper asks about a dress from her phone (the fake Cloud API's
// phone page), staff answer from the inbox with a cart link, she opens it, pays by mobile money,
// and her order updates arrive on WhatsApp as the shop's templates. Once with her phone at 360 px
// and the desk at 1366 px, once the other way round.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_TEXT } from '#core/mobile-money.ts';
import { CHECKOUT_TEXT } from '#core/order-rules.ts';
import { ORDER_UPDATE_TEMPLATES } from '#core/whatsapp.ts';
import { createDb } from '#db/client.ts';
import { userSettings } from '#db/schema/index.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { fillDeliveryArea } from '../support/checkout.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const FAKE = new URL(shop().fakeEnv.WHATSAPP_BASE_URL ?? '').origin;
const SHOTS = '/tmp/duuka';

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});
afterAll(closeBrowser);

type Sent = { type: string; text: string; template?: string };
const sentTo = async (digits: string): Promise<Sent[]> =>
  (await (await fetch(`${FAKE}/__sent?number=${digits}`)).json()) as Sent[];

async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS)
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe('a sale that starts on WhatsApp', () => {
  for (const [label, phoneSize, deskSize, digits] of [
    ['phone-360', SMALL_PHONE, DESKTOP, '256772004111'],
    ['phone-1366', DESKTOP, SMALL_PHONE, '256772004121'],
  ] as const) {
    it(`asks on WhatsApp, gets a cart link from staff, pays by mobile money, follows it on WhatsApp (her screen ${label})`, async () => {
      const number = `+${digits}`;
      const shopper = await verifiedShopper(db, 'Atim Journey', {
        phone: number,
        address: 'Plot 9 Kira Road, Kampala',
      });
      await db
        .insert(userSettings)
        .values({ userId: shopper.id, notificationChannel: 'whatsapp' })
        .onConflictDoUpdate({
          target: userSettings.userId,
          set: { notificationChannel: 'whatsapp' },
        });
      const dress = await addProduct(db, {
        name: `Busuuti Journey ${randomUUID().slice(0, 4)}`,
        price: 150_000,
        stock: 3,
      });

      // She writes from her phone.
      const her = await newPage(phoneSize);
      // WhatsApp itself (the fake's page, not the shop's: no hydration to wait for).
      const whatsapp = await her.page.context().newPage();
      await whatsapp.goto(`${FAKE}/phone/${digits}`);
      await whatsapp.getByLabel('Your name').fill('Atim');
      await whatsapp.getByLabel('Message').fill(`Do you still have the ${dress.name}?`);
      await whatsapp.getByRole('button', { name: 'Send' }).click();
      await whatsapp.getByText(`Do you still have the ${dress.name}?`).waitFor();

      // Staff answer with a cart link from the inbox.
      const desk = await newPage(deskSize);
      await signIn(desk.page, await deskOwner(db));
      await desk.page.goto(`/desk/inbox?phone=${encodeURIComponent(number)}`);
      const view = desk.page.getByTestId('thread');
      await view
        .getByTestId('bubble-in')
        .filter({ hasText: dress.name })
        .waitFor({ timeout: 20_000 });
      const tools = view.getByTestId('inbox-tools');
      await tools.locator('summary').click();
      await tools.getByTestId('inbox-search').fill(dress.name);
      const found = tools.getByTestId('inbox-found').first();
      await found.waitFor({ timeout: 10_000 });
      await found.getByRole('button', { name: 'Add to link' }).click();
      await tools.getByRole('button', { name: 'Send cart link' }).click();
      await view
        .getByTestId('bubble-out')
        .filter({ hasText: '/cart?add=' })
        .waitFor({ timeout: 15_000 });
      await shot(desk.page, `whatsapp-journey-desk-${label}`);

      // The link reaches her phone; she opens it on the shop, signed in.
      await whatsapp.reload();
      const link = (await sentTo(digits))
        .map((m) => /https?:\/\/\S+\/cart\?add=\S+/.exec(m.text)?.[0])
        .find(Boolean);
      expect(link).toBe(`${shop().url}/cart?add=${dress.variantId}x1`);
      await whatsapp.getByText('/cart?add=', { exact: false }).first().waitFor();
      await shot(whatsapp, `whatsapp-journey-phone-${label}`);
      await signIn(her.page, shopper);
      await her.page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
      await her.page.getByText(dress.name).first().waitFor({ timeout: 15_000 });
      await her.page.waitForURL((url) => !url.search.includes('add='), { timeout: 15_000 });

      // She pays by mobile money.
      await her.page.goto('/checkout');
      await fillDeliveryArea(her.page);
      await her.page.getByRole('radio', { name: /Mobile Money/ }).check();
      await her.page.getByText('MTN Mobile Money', { exact: true }).waitFor();
      await her.page.getByRole('button', { name: 'Place Order' }).click();
      await her.page.getByText(CHECKOUT_TEXT.placed).first().waitFor({ timeout: 30_000 });
      await her.page.getByText(PAYMENT_TEXT.paid).first().waitFor();

      // Her order updates come on WhatsApp, as the shop's templates; no SMS needed.
      await expect
        .poll(
          async () =>
            (await sentTo(digits)).filter((m) => m.type === 'template').map((m) => m.template),
          { timeout: 30_000 },
        )
        .toEqual(
          expect.arrayContaining([
            ORDER_UPDATE_TEMPLATES['order-confirmation'].name,
            ORDER_UPDATE_TEMPLATES['payment-received'].name,
          ]),
        );
      await whatsapp.reload();
      await whatsapp.getByText('Your payment reached duuka.').first().waitFor();
      // Staff see her order paid beside the thread.
      await desk.page.reload();
      await desk.page
        .getByTestId('thread-shopper')
        .getByTestId('shopper-order-paid')
        .getByText('Paid', { exact: true })
        .first()
        .waitFor({ timeout: 15_000 });
      await shot(whatsapp, `whatsapp-journey-updates-${label}`);
      expect(her.errors).toEqual([]);
      expect(desk.errors).toEqual([]);
      await her.page.context().close();
      await desk.page.context().close();
    }, 180_000);
  }
});
