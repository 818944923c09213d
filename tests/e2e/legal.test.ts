// Issue 24, item 4: the Terms of Service, Privacy Policy and Cookie Policy are real pages, linked
// from the footer and from sign-up, and the privacy notice names what the shop really keeps —
// every cookie and browser-storage key the shop sets is one the Cookie Policy names.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BROWSER_ITEMS,
  LEGAL_PAGES,
  LEGAL_UPDATED,
  RECIPIENTS,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from '#core/legal.ts';
import { LESS_DATA_COOKIE } from '#core/less-data.ts';
import { CART_STORAGE_KEY, SETTINGS_STORAGE_KEY } from '#core/settings-rules.ts';
import { createDb } from '#db/client.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { demoPiece } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

afterAll(closeBrowser);
const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka-legal';

/** axe in the light and the dark theme, with a screenshot of each. */
async function axeBothThemes(page: Page, shot: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${shot}-${colorScheme}.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/${shot}-${colorScheme}-top.png` });
    await expectNoSeriousViolations(page, `${shot} ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

/** Elements wider than the screen, outside a horizontal scroller. */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80));
  });
}

const DESCRIPTIONS: Record<string, RegExp> = {
  '/terms': /^How ordering from duuka works: prices in UGX/,
  '/privacy': /^What duuka keeps about you/,
  '/cookies': /^Every cookie and browser-storage key duuka uses/,
};

describe('the legal pages', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`exist with their title, description and canonical, readable and axe clean light and dark at ${viewport.width}px`, async () => {
      const { page, errors } = await newPage(viewport);
      for (const { path, title } of LEGAL_PAGES) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(page.title()).resolves.toBe(`${title} · duuka`);
        await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toBe(
          `${new URL(shop().url).origin}${path}`,
        );
        await expect(
          page.locator('meta[name="description"]').getAttribute('content'),
        ).resolves.toMatch(DESCRIPTIONS[path] ?? /^$/);
        const main = page.locator('main');
        await expect(main.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(title);
        await expect(main.textContent()).resolves.toContain(`Last updated ${LEGAL_UPDATED}`);
        // The contents list leads to each numbered section.
        const contents = main.getByRole('navigation', { name: 'On this page' }).getByRole('link');
        const count = await contents.count();
        expect(count).toBeGreaterThan(3);
        for (let i = 0; i < count; i += 1) {
          const href = (await contents.nth(i).getAttribute('href')) ?? '';
          await expect(main.locator(`section${href}`).count()).resolves.toBe(1);
        }
        // The other two documents at the foot.
        for (const other of LEGAL_PAGES.filter((p) => p.path !== path)) {
          await expect(
            main.getByRole('link', { name: other.title }).last().getAttribute('href'),
          ).resolves.toBe(other.path);
        }
        expect({ path, wide: await overflowing(page) }).toEqual({ path, wide: [] });
        await axeBothThemes(page, `${path.slice(1)}-${viewport.width}`);
      }
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it(`are linked from the footer on the front page and from sign-up at ${viewport.width}px`, async () => {
      const { page, errors } = await newPage(viewport);
      for (const { path, title } of LEGAL_PAGES) {
        await page.goto('/');
        const link = page.getByRole('contentinfo').getByRole('link', { name: title });
        await expect(link.getAttribute('href')).resolves.toBe(path);
        if (path === '/terms') {
          // The footer's foot, for a look at the legal row.
          const legal = page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' });
          await legal
            .locator('xpath=../..')
            .screenshot({ path: `${SHOTS}/footer-${viewport.width}.png` });
        }
        const box = await link.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
        await link.click();
        await page.waitForURL(`**${path}`);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
      }

      await page.goto('/register');
      const agreement = page.locator('main').getByText('By creating an account you agree to our');
      await expect(agreement.textContent()).resolves.toBe(
        'By creating an account you agree to our Terms of Service and Privacy Policy.',
      );
      await expect(
        agreement.getByRole('link', { name: 'Terms of Service' }).getAttribute('href'),
      ).resolves.toBe('/terms');
      const privacy = agreement.getByRole('link', { name: 'Privacy Policy' });
      await expect(privacy.getAttribute('href')).resolves.toBe('/privacy');
      // Shown before the button that creates the account, and read with it.
      await expect(
        page.getByRole('button', { name: 'Create Account' }).getAttribute('aria-describedby'),
      ).resolves.toBe(await agreement.getAttribute('id'));
      await agreement.scrollIntoViewIfNeeded();
      await axeBothThemes(page, `register-${viewport.width}`);
      await privacy.click();
      await page.waitForURL('**/privacy');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('the privacy notice names what the shop keeps, who receives it and the browser’s keys', async () => {
    const { page } = await newPage(PHONE);
    await page.goto('/privacy');
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    for (const fact of [
      // the profile and the order's delivery details (db/schema/accounts-tables.ts, orders.ts)
      'your phone number',
      'your delivery address',
      'landmark, the phone number the rider calls',
      'the IP address and the browser (its user agent)',
      'one-way hash',
      // payments (db/schema/payments-tables.ts): the paying number, never the card
      'the number that paid',
      'your card details are typed on Pesapal’s page and never reach duuka',
      // texts and chats (db/schema/messaging-tables.ts; server/services/chat)
      'the number and the words of each text',
      'what you write to “Ask duuka”',
      // how long: the session's 30 days (server/auth.ts), the books, deletion
      'A session ends 30 days after it was last renewed',
      'As long as the law on business records requires',
      'named “Deleted customer”',
      // where to delete it, and the regulator
      'Delete account',
      'Personal Data Protection Office',
      'Data Protection and Privacy Act, 2019',
      // the browser (core/settings-rules.ts, server/auth.ts)
      SESSION_COOKIE,
      SETTINGS_STORAGE_KEY,
      CART_STORAGE_KEY,
    ]) {
      expect(text, fact).toContain(fact);
    }
    for (const name of [
      'MTN',
      'Airtel',
      'Pesapal',
      'EgoSMS',
      'Gemini',
      'Resend',
      'Cloudflare',
      'Neon',
    ]) {
      expect(text, name).toContain(name);
    }
    for (const recipient of RECIPIENTS) {
      await page.getByRole('heading', { level: 3, name: recipient.name }).waitFor();
    }
    // Delete account is where the notice says: the profile page's foot.
    await expect(
      page.locator('main').getByRole('link', { name: 'Profile' }).first().getAttribute('href'),
    ).resolves.toBe('/profile');
    await page.context().close();
  });

  it('every cookie and storage key the shop sets is named on the cookie page, with no tracking', async () => {
    const piece = await demoPiece(db, { minStock: 5 });
    const shopper = await verifiedShopper(db, 'Lydia Legal', {
      phone: '+256772100424',
      address: 'Plot 4, Kira Road, Kampala',
    });
    const { page, errors } = await newPage(DESKTOP);
    // A visitor's add (remembered for after sign-in), then the signed-in shopper's cart and settings.
    await page.goto(`/products/${piece.slug}`);
    await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
    await page.waitForURL('**/login');
    await signIn(page, shopper);
    await page.goto(`/products/${piece.slug}`);
    await page.getByRole('button', { name: 'Add 1 to Cart' }).click();
    await expect
      .poll(() => page.evaluate((key) => localStorage.getItem(key), CART_STORAGE_KEY))
      .toContain(piece.name);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Privacy', level: 2 }).waitFor();
    // "Use less data" adds its cookie (core/less-data.ts).
    await page.getByRole('switch', { name: 'Use less data' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Settings saved successfully!').waitFor();

    const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
    expect(cookies).toContain(SESSION_COOKIE);
    expect(cookies).toContain(LESS_DATA_COOKIE);
    const stored = await page.evaluate(() => [
      ...Object.keys(localStorage),
      ...Object.keys(sessionStorage),
    ]);
    expect(stored).toContain(CART_STORAGE_KEY);

    await page.goto('/cookies');
    const named = await page.locator('main h3').allTextContents();
    expect(new Set(named)).toEqual(new Set(BROWSER_ITEMS.map((item) => item.name)));
    for (const name of [...cookies, ...stored]) expect(named, name).toContain(name);
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(SECURE_SESSION_COOKIE);
    expect(text).toContain('There are no advertising, analytics or third-party tracking cookies');
    // Scripts come from the shop alone: the page loaded none from elsewhere.
    const foreign = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => new URL(url).origin !== location.origin),
    );
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
