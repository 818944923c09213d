// The shop's own details in the browser (issue 34), against the production build, at 360 px and
// 1366 px: the owner closes Sunday and opens Saturday 09:00–18:00 (and, on the phone, drops the
// map pin), then a visitor sees them on the contact page and in the footer, and the home page's
// LocalBusiness JSON-LD gives them per day. Screenshots in light and dark; axe clean.
import { inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { systemSettings } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const MINE = ['store_hours', 'store_pin'];

/** Today's shop again (the browser tests share one shop), and the cached pages let go. */
async function reset() {
  await db.delete(systemSettings).where(inArray(systemSettings.settingKey, MINE));
  await bumpCatalogueVersion(db);
}

afterAll(async () => {
  await reset();
  await closeBrowser();
});

const SHOTS = '/tmp/duuka';

async function shotsAndAxe(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
    await expectNoSeriousViolations(page, `${name} ${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settle(page);
}

/** Nothing wider than the screen; when something is, the message names what sticks out. */
async function fitsWidth(page: Page, width: number) {
  const { scrollWidth, past } = await page.evaluate((edge) => {
    const past = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > edge + 0.5)
      .slice(-3)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className}: "${element.textContent?.slice(0, 60)}"`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, past };
  }, width);
  expect(scrollWidth, past.join('\n')).toBeLessThanOrEqual(width);
}

let owner: Shopper;
beforeAll(async () => {
  owner = await deskOwner(db);
  await reset();
});

describe('the owner edits the shop’s hours', () => {
  for (const [viewport, name] of [
    [SMALL_PHONE, '360'],
    [DESKTOP, '1366'],
  ] as const) {
    it(`at ${name} px: Sunday closed, Saturday 09:00–18:00, seen on the contact page, the footer and the home’s JSON-LD`, async () => {
      await reset();
      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      await page.goto('/desk/details');
      const form = page.getByTestId('store-details-form');
      await form.waitFor();
      await page.locator('html[data-hydrated="true"]').waitFor();
      if (name === '360') await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-details-${name}`);

      const saturday = form.getByTestId('store-details-day-sat');
      await saturday.getByLabel('Saturday opens').fill('09:00');
      await saturday.getByLabel('Saturday closes').fill('18:00');
      await form.getByTestId('store-details-day-sun').getByLabel('Sunday closed').check();
      await expect(
        form.getByTestId('store-details-day-sun').getByLabel('Sunday opens').count(),
      ).resolves.toBe(0);
      if (name === '360') {
        await form.getByLabel('Latitude').fill('0.313611');
        await form.getByLabel('Longitude').fill('32.581111');
        await expect(form.getByTestId('store-details-map').getAttribute('href')).resolves.toBe(
          'https://www.google.com/maps/search/?api=1&query=0.313611,32.581111',
        );
      }
      const saved = page.waitForResponse((r) => r.url().includes('desk.saveStoreDetails'));
      await form.getByRole('button', { name: 'Save shop details' }).click();
      expect((await saved).status()).toBe(200);
      await page.getByText('Shop details saved').first().waitFor();
      if (name === '360') await fitsWidth(page, viewport.width);
      expect(errors).toEqual([]);

      // A visitor, signed out: the contact page (an edge-cached page) shows the new week.
      const visitor = await newPage(viewport);
      await visitor.page.goto('/contact');
      const hours = visitor.page.getByTestId('contact-hours');
      await hours.waitFor();
      const day = (d: string) => hours.locator(`[data-day="${d}"] dd`).textContent();
      await expect(day('sun')).resolves.toBe('Closed');
      await expect(day('sat')).resolves.toBe('9AM–6PM');
      await expect(day('mon')).resolves.toBe('8AM–8PM');
      if (name === '360') {
        await expect(visitor.page.getByTestId('contact-map').getAttribute('href')).resolves.toBe(
          'https://www.google.com/maps/search/?api=1&query=0.313611,32.581111',
        );
        await fitsWidth(visitor.page, viewport.width);
      }
      const footer = visitor.page.getByTestId('footer-hours');
      await expect(footer.innerText()).resolves.toMatch(
        /Mon–Fri\s+8AM–8PM\s+Sat\s+9AM–6PM\s+Sun\s+Closed/,
      );
      await shotsAndAxe(visitor.page, `contact-details-${name}`);

      // The home page's structured data: the boutique with its hours per day.
      await visitor.page.goto('/');
      const scripts = await visitor.page
        .locator('script[type="application/ld+json"]')
        .allTextContents();
      const business = scripts
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((data) => data['@type'] === 'ClothingStore');
      expect(business?.openingHoursSpecification).toEqual([
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
          opens: '08:00',
          closes: '20:00',
        },
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Saturday'],
          opens: '09:00',
          closes: '18:00',
        },
      ]);
      if (name === '360') {
        expect(business?.geo).toEqual({
          '@type': 'GeoCoordinates',
          latitude: 0.313611,
          longitude: 32.581111,
        });
      }
      expect(visitor.errors).toEqual([]);
      await visitor.page.context().close();
      await page.context().close();
      await reset();
    }, 120_000);
  }
});
