// "Use less data" (issue 38, decision 0091): a browser that sends `Save-Data: on`, or a shopper
// who turned the setting on, gets listings with their 400 px pictures only, at any screen density,
// and a home hero that stays still until she moves it.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

afterAll(closeBrowser);
const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';

/** The widths of the product pictures the page fetches from now on (`-800.webp`, `?w=800`). */
function pictureWidths(page: Page): number[] {
  const widths: number[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'image') return;
    const width = request.url().match(/-(\d+)\.webp$|[?&]w=(\d+)/);
    if (width) widths.push(Number(width[1] ?? width[2]));
  });
  return widths;
}

/** The hero stays on its first slide for 6 s; the arrows still move it. */
async function heroStaysStill(page: Page) {
  const hero = page.getByRole('region', { name: 'Highlights' });
  const active = () => hero.locator('[data-active="true"]').getAttribute('aria-label');
  await expect.poll(() => hero.getAttribute('data-playing'), { timeout: 5000 }).toBe('false');
  await page.clock.runFor(6000);
  await expect(active()).resolves.toBe('1 of 3');
  await hero.getByRole('button', { name: 'Next slide' }).click();
  await expect.poll(active, { timeout: 5000 }).toBe('2 of 3');
}

/** The screens, each dense enough that without saving data its cards take bigger copies: a card is
 * half a phone's width, so a 360 px phone at 2× takes the 400 px copy anyway; at 3× (many an
 * Android) it takes the 800 px one. A desktop's 300 px card at 2× takes 800 px. */
const screens = [
  ['phone', SMALL_PHONE, 3],
  ['desktop', DESKTOP, 2],
] as const;

describe('a browser that sends Save-Data: on', () => {
  for (const [screen, viewport, deviceScaleFactor] of screens) {
    it(`gets /shop with 400 px pictures only, and a still hero, at ${viewport.width} px, ${deviceScaleFactor}×`, async () => {
      // Without it, the same screen fetches bigger pictures: what the test tells apart.
      const full = await newPage(viewport, { deviceScaleFactor });
      const fullWidths = pictureWidths(full.page);
      await full.page.goto('/shop', { waitUntil: 'networkidle' });
      expect(Math.max(...fullWidths)).toBeGreaterThan(400);
      await full.page.context().close();

      const { page, errors } = await newPage(viewport, {
        deviceScaleFactor,
        extraHTTPHeaders: { 'Save-Data': 'on' },
      });
      const widths = pictureWidths(page);
      const answer = await page.goto('/shop', { waitUntil: 'networkidle' });
      expect(answer?.headers().vary).toContain('Save-Data');
      await expect(page.getByTestId('product-card').count()).resolves.toBeGreaterThan(4);
      expect(widths.length).toBeGreaterThan(0);
      expect(new Set(widths)).toEqual(new Set([400]));
      // The card shows the small copy (the first card whose picture has copies: other tests'
      // pieces may have none).
      await expect(
        page
          .getByTestId('product-card')
          .locator('picture:has(source[type="image/webp"]) img')
          .first()
          .evaluate((img: HTMLImageElement) => img.currentSrc),
      ).resolves.toMatch(/-400\.webp$|[?&]w=400$/);
      if (process.env.E2E_SHOTS) {
        await mkdir(SHOTS, { recursive: true });
        await page.screenshot({ path: `${SHOTS}/less-data-shop-${screen}.png` });
      }

      // Home: the rows' and the hero's pictures are small too, and the hero does not move.
      await page.clock.install();
      widths.length = 0;
      await page.goto('/', { waitUntil: 'networkidle' });
      expect(widths.length).toBeGreaterThan(0);
      expect(new Set(widths)).toEqual(new Set([400]));
      await heroStaysStill(page);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

describe('a shopper who turns on "Use less data" in Settings', () => {
  for (const [screen, viewport, deviceScaleFactor] of screens) {
    it(`sees small pictures and a still hero from her next page on, after a reload too, at ${viewport.width} px`, async () => {
      const shopper = await verifiedShopper(db, 'Apio Less-Data');
      const { page, errors } = await newPage(viewport, { deviceScaleFactor });
      await signIn(page, shopper);
      await page.goto('/settings');
      const toggle = page.getByRole('switch', { name: 'Use less data' });
      await expect(toggle.getAttribute('aria-checked')).resolves.toBe('false');
      await page
        .getByText('Smaller pictures and no moving slides. Good on a data bundle.')
        .waitFor();
      await toggle.click();
      await expect(toggle.getAttribute('aria-checked')).resolves.toBe('true');
      if (process.env.E2E_SHOTS) {
        await mkdir(SHOTS, { recursive: true });
        await toggle.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/less-data-settings-${screen}-light.png` });
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.screenshot({ path: `${SHOTS}/less-data-settings-${screen}-dark.png` });
        await page.emulateMedia({ colorScheme: 'light' });
      }
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Settings saved successfully!').waitFor();

      // Her next page, in the app: the shop's pictures at 400 px only.
      const widths = pictureWidths(page);
      await page.locator('footer').getByRole('link', { name: 'Shop', exact: true }).click();
      await page.waitForURL('**/shop');
      await page.getByTestId('product-card').first().waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="product-card"] img')]
          .slice(0, 2)
          .every((img) => img.complete && img.naturalWidth > 0),
      );
      await expect(page.getByTestId('product-card').count()).resolves.toBeGreaterThan(4);
      expect(widths.length).toBeGreaterThan(0);
      expect(new Set(widths)).toEqual(new Set([400]));
      // A reload: the server makes the page light before it is sent.
      widths.length = 0;
      const reloaded = await page.reload({ waitUntil: 'networkidle' });
      expect(await reloaded?.text()).not.toContain('-800.webp');
      expect(new Set(widths)).toEqual(new Set([400]));
      // Home's hero stays still.
      await page.clock.install();
      await page.goto('/');
      await heroStaysStill(page);
      // The setting is kept: Settings shows it on after a reload.
      await page.goto('/settings');
      await expect
        .poll(
          () => page.getByRole('switch', { name: 'Use less data' }).getAttribute('aria-checked'),
          {
            timeout: 5000,
          },
        )
        .toBe('true');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
