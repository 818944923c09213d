// "Ask on WhatsApp" and the order updates' channel in the browser (issue 37), against the
// production build, whose shop runs the local fakes (WhatsApp among them: configured). At 360 px
// the owner sets the shop's WhatsApp number on /desk/details, then a shopper on a product page
// picks a size and finds "Ask on WhatsApp" opening wa.me with the piece, the size and its link;
// at 1366 px her order page's link carries the order's reference, and on /settings she chooses
// WhatsApp for her order updates and it stays after a reload. Screenshots (E2E_SHOTS=1) in light
// and dark at both widths; axe clean.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptNumber } from '#core/order-rules.ts';
import { createDb } from '#db/client.ts';
import { systemSettings, userSettings } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';
const DRESS = '/products/ankara-wrap-dress';
const FAKE = new URL(shop().fakeEnv.WHATSAPP_BASE_URL ?? '').origin;

/** No WhatsApp number again (the browser tests share one shop), the cached pages let go. */
async function forgetNumber() {
  await db.delete(systemSettings).where(eq(systemSettings.settingKey, 'whatsapp_number'));
  await bumpCatalogueVersion(db);
}

let owner: Shopper;
let shopper: Shopper;
let orderId = '';
beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  await forgetNumber();
  owner = await deskOwner(db);
  shopper = await verifiedShopper(db, 'Nansubuga Asks', {
    phone: '+256772123457',
    address: 'Plot 3 Bukoto Street, Kampala',
  });
  const bag = await addProduct(db, {
    name: `Raffia Tote ${randomUUID().slice(0, 6)}`,
    price: 95_000,
  });
  const placed = await placeOrder(db, shopper, {
    orderId: randomUUID(),
    lines: [{ variantId: bag.variantId, quantity: 1 }],
    paymentMethod: 'cash_on_delivery',
  });
  if (!placed.ok) throw new Error(`order refused: ${JSON.stringify(placed.problem)}`);
  orderId = placed.order.orderId;
}, 60_000);
afterAll(async () => {
  await forgetNumber();
  await closeBrowser();
});

/** Light and dark, each axe clean; the screenshots when asked (E2E_SHOTS=1). */
async function lookAt(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/whatsapp-${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page, `${name} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await settle(page);
}

/** Nothing wider than the screen; when something is, the message names what sticks out. */
async function fitsWidth(page: Page, width: number) {
  const { scrollWidth, past } = await page.evaluate((edge) => {
    const past = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > edge + 0.5)
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { scrollWidth: document.documentElement.scrollWidth, past };
  }, width);
  expect(scrollWidth, past.join('\n')).toBeLessThanOrEqual(width);
}

/** The link's wa.me number and its pre-filled text. */
async function whatsAppLink(link: Locator) {
  const href = (await link.getAttribute('href')) ?? '';
  const url = new URL(href);
  return { href, origin: url.origin, number: url.pathname, text: url.searchParams.get('text') };
}

const askLink = (page: Page) => page.getByRole('link', { name: 'Ask on WhatsApp', exact: true });

describe('Ask on WhatsApp', () => {
  it('at 360 px: the owner sets the number; on a piece, the link names it, her size and its link', async () => {
    // The owner: the number as she types it, kept as +256….
    const desk = await newPage(SMALL_PHONE);
    await signIn(desk.page, owner);
    await desk.page.goto('/desk/details');
    const form = desk.page.getByTestId('store-details-form');
    await form.waitFor();
    const number = form.getByLabel('WhatsApp number');
    await number.fill('0772 123 999');
    await expect(form.getByText('The number shoppers write to on WhatsApp').count()).resolves.toBe(
      1,
    );
    const saved = desk.page.waitForResponse((r) => r.url().includes('desk.saveStoreDetails'));
    await form.getByRole('button', { name: 'Save shop details' }).click();
    expect((await saved).status()).toBe(200);
    await desk.page.getByText('Shop details saved').first().waitFor();
    await fitsWidth(desk.page, SMALL_PHONE.width);
    await desk.page.reload();
    await expect
      .poll(() => desk.page.getByLabel('WhatsApp number').inputValue(), { timeout: 10_000 })
      .toBe('+256772123999');
    await lookAt(desk.page, 'desk-details-360');
    expect(desk.errors).toEqual([]);
    await desk.page.context().close();

    // The shopper on the dress: its first colour is chosen as the page opens, no size yet.
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, shopper);
    await page.goto(DRESS);
    const name = (await page.getByRole('heading', { level: 1 }).textContent())?.trim() ?? '';
    const ask = askLink(page);
    await ask.waitFor({ timeout: 10_000 });
    expect(await ask.getAttribute('target')).toBe('_blank');
    expect(await ask.getAttribute('rel')).toBe('noopener');
    const link = `${shop().url}${DRESS}`;
    let asked = await whatsAppLink(ask);
    expect(asked).toMatchObject({ origin: 'https://wa.me', number: '/256772123999' });
    expect(asked.text).toBe(`Hello duuka, I'd like to ask about ${name} (colour Indigo): ${link}`);

    // She picks M: the question names it, and the other colour when she picks that.
    await page
      .getByRole('radiogroup', { name: 'Size', exact: true })
      .locator('label', { hasText: /^M/ })
      .click();
    await expect
      .poll(async () => (await whatsAppLink(ask)).text, { timeout: 10_000 })
      .toBe(`Hello duuka, I'd like to ask about ${name} (size M, colour Indigo): ${link}`);
    asked = await whatsAppLink(ask);
    expect(asked.href).toContain(encodeURIComponent(name));
    expect(asked.href).toContain(encodeURIComponent('(size M'));
    expect(asked.href).toContain(encodeURIComponent(link));
    await page
      .getByRole('radiogroup', { name: 'Colour', exact: true })
      .locator('label', { hasText: /^Terracotta/ })
      .click();
    await expect
      .poll(async () => (await whatsAppLink(ask)).text, { timeout: 10_000 })
      .toBe(`Hello duuka, I'd like to ask about ${name} (size M, colour Terracotta): ${link}`);
    await fitsWidth(page, SMALL_PHONE.width);
    await lookAt(page, 'product-360');

    // Her order on the phone: the link sits above "Delete order", the width of the screen.
    await page.goto(`/order-history/${orderId}`);
    await askLink(page).waitFor({ timeout: 15_000 });
    expect((await whatsAppLink(askLink(page))).text).toBe(
      `Hello duuka, about my order ${receiptNumber(orderId)}: `,
    );
    await fitsWidth(page, SMALL_PHONE.width);
    await lookAt(page, 'order-360');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('at 1366 px: her order’s link carries its reference; she chooses WhatsApp for order updates and it stays', async () => {
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, shopper);
    await page.goto(`/order-history/${orderId}`);
    const ask = askLink(page);
    await ask.waitFor({ timeout: 15_000 });
    const asked = await whatsAppLink(ask);
    expect(asked).toMatchObject({ origin: 'https://wa.me', number: '/256772123999' });
    expect(asked.text).toBe(`Hello duuka, about my order RCP-${orderId.slice(0, 8)}: `);
    expect(await ask.getAttribute('target')).toBe('_blank');
    await lookAt(page, 'order-1366');

    await page.goto(DRESS);
    await askLink(page).waitFor({ timeout: 10_000 });
    await lookAt(page, 'product-1366');

    // Settings → Notifications: SMS until she chooses WhatsApp.
    await page.goto('/settings');
    const channel = page.getByRole('radiogroup', { name: 'Send them by' });
    await channel.waitFor({ timeout: 15_000 });
    const whatsapp = channel.getByRole('radio', { name: /^WhatsApp/ });
    await expect(channel.getByRole('radio', { name: /^SMS/ }).isChecked()).resolves.toBe(true);
    await channel.locator('label', { hasText: /^WhatsApp/ }).click();
    await expect(whatsapp.isChecked()).resolves.toBe(true);
    const saved = page.waitForResponse((r) => r.url().includes('account.saveSettings'));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Settings saved successfully!').first().waitFor();
    const [row] = await db
      .select({ channel: userSettings.notificationChannel })
      .from(userSettings)
      .where(eq(userSettings.userId, shopper.id));
    expect(row?.channel).toBe('whatsapp');
    await page.locator('#notifications').scrollIntoViewIfNeeded();
    await lookAt(page, 'settings-1366');

    await page.reload();
    const after = page.getByRole('radiogroup', { name: 'Send them by' });
    await after.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => after.getByRole('radio', { name: /^WhatsApp/ }).isChecked(), { timeout: 10_000 })
      .toBe(true);

    // Verify on WhatsApp: the code arrives on her phone (the fake's) as the template; typed here.
    const verify = page.getByTestId('verify-whatsapp');
    await verify.getByRole('button', { name: 'Send me a code on WhatsApp' }).click();
    await verify.getByText('We sent a 6-digit code to +256772123457 on WhatsApp.').waitFor();
    const phone = `${FAKE}/__sent?number=256772123457`;
    const sent = (await (await fetch(phone)).json()) as {
      template?: string;
      parameters?: string[];
    }[];
    const code = sent.filter((m) => m.template === 'duuka_verification_code').at(-1)
      ?.parameters?.[0];
    expect(code).toMatch(/^\d{6}$/);
    await verify.getByLabel('Code from WhatsApp').fill(code === '000000' ? '111111' : '000000');
    await verify.getByRole('button', { name: 'Verify' }).click();
    await verify.getByText('That code is not the one we sent.', { exact: false }).waitFor();
    await verify.getByLabel('Code from WhatsApp').fill(code ?? '');
    await verify.getByRole('button', { name: 'Verify' }).click();
    await verify
      .getByText('+256772123457 is verified on WhatsApp', { exact: false })
      .waitFor({ timeout: 10_000 });
    await verify.scrollIntoViewIfNeeded();
    await lookAt(page, 'settings-verified-1366');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);
});
