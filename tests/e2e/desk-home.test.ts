// The home page on the desk in the browser (issue 34, decision 0078), against the production
// build, at 360 and 1366 px: the owner edits the first slide's words and moves a category up,
// then a visitor sees both at once (the edge cache keyed by the catalogue's version): the words
// on the home's hero, the category higher in the menu (the side menu on a phone, the header's
// dropdown on a wide screen). A hostile link is refused with the desk's text. axe clean, light
// and dark; nothing wider than the screen.
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_HOME_TEXT } from '#core/desk-home.ts';
import { createDb } from '#db/client.ts';
import { categories, homeSlides } from '#db/schema/index.ts';
import { bumpCatalogueVersion } from '#server/services/catalogue-version.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, type Shopper, signIn } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = '/tmp/duuka';

let owner: Shopper;
/** What the shop had before: the other browser tests read the migration's slides and the
 * categories' order, so both go back after. */
let slidesBefore: { id: number; words: string; linkUrl: string }[] = [];
let categoriesBefore: { id: number; position: number }[] = [];

beforeAll(async () => {
  owner = await deskOwner(db);
  slidesBefore = await db
    .select({ id: homeSlides.id, words: homeSlides.words, linkUrl: homeSlides.linkUrl })
    .from(homeSlides);
  categoriesBefore = await db
    .select({ id: categories.id, position: categories.position })
    .from(categories);
});
afterAll(async () => {
  await db.batch([
    bumpCatalogueVersion(db),
    ...slidesBefore.map((s) =>
      db
        .update(homeSlides)
        .set({ words: s.words, linkUrl: s.linkUrl })
        .where(eq(homeSlides.id, s.id)),
    ),
    ...categoriesBefore.map((c) =>
      db.update(categories).set({ position: c.position }).where(eq(categories.id, c.id)),
    ),
  ]);
  await closeBrowser();
});

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

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** The categories' names in the order the shop's menu shows them to a visitor. */
async function menuNames(page: Page, width: number): Promise<string[]> {
  if (width < 1024) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const summary = page.locator('summary', { hasText: 'Categories' });
    await summary.click();
    const list = summary.locator('xpath=..').getByRole('link');
    await list.first().waitFor();
    return list.allTextContents();
  }
  await page.getByRole('button', { name: 'Categories' }).click();
  const list = page.locator('#categories-menu').getByRole('link');
  await list.first().waitFor();
  return list.allTextContents();
}

describe('the home page on the desk', () => {
  for (const viewport of [SMALL_PHONE, DESKTOP]) {
    it(`the owner's words and order are what a visitor sees at once (${viewport.width} px)`, async () => {
      const { page, errors } = await newPage(viewport);
      await signIn(page, owner);
      await page.goto('/desk/home');
      const slidesForm = page.getByTestId('desk-home-slides');
      const firstSlide = slidesForm.getByTestId('desk-slide').first();
      const words = `Linen for the dry season, ${viewport.width} px ${randomUUID().slice(0, 6)}.`;

      // A link off the shop is refused before sending, with the desk's text; nothing is lost.
      await firstSlide.getByLabel('Link').fill('https://evil.example');
      await slidesForm.getByRole('button', { name: 'Save slides' }).click();
      await slidesForm.getByText(DESK_HOME_TEXT.linkInvalid).waitFor();
      await firstSlide.getByLabel('Link').fill('/shop');

      await firstSlide.getByLabel('Words').fill(words);
      // The preview follows what is typed.
      await firstSlide.getByTestId('slide-preview').getByText(words).waitFor();
      await slidesForm.getByRole('button', { name: 'Save slides' }).click();
      await page.getByText(DESK_HOME_TEXT.slidesSaved).first().waitFor();

      // The last category moves up one place.
      const categoriesForm = page.getByTestId('desk-home-categories');
      const rows = categoriesForm.getByTestId('desk-category');
      const names = await rows
        .getByRole('textbox')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(names.length).toBeGreaterThan(1);
      const last = names.at(-1) as string;
      const above = names.at(-2) as string;
      await categoriesForm.getByRole('button', { name: `Move ${last} up` }).click();
      await expect(
        rows
          .getByRole('textbox')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
      ).resolves.toEqual([...names.slice(0, -2), last, above]);
      await categoriesForm.getByRole('button', { name: 'Save categories' }).click();
      await page.getByText(DESK_HOME_TEXT.categoriesSaved).first().waitFor();

      await fitsWidth(page, viewport.width);
      await shotsAndAxe(page, `desk-home-${viewport.width}`);

      // A visitor (no session: the page the edge cache keeps) sees both at once.
      const visitor = await newPage(viewport);
      await visitor.page.goto('/');
      const hero = visitor.page.getByRole('region', { name: 'Highlights' });
      await hero.getByText(words).waitFor();
      await fitsWidth(visitor.page, viewport.width);
      await shotsAndAxe(visitor.page, `desk-home-shop-${viewport.width}`);
      const menu = await menuNames(visitor.page, viewport.width);
      expect(menu.indexOf(last)).toBeGreaterThanOrEqual(0);
      expect(menu.indexOf(last)).toBeLessThan(menu.indexOf(above));
      expect(visitor.errors).toEqual([]);
      await visitor.page.context().close();

      // The database holds what the shop shows.
      const stored = await db
        .select({ name: categories.name })
        .from(categories)
        .orderBy(asc(categories.position), asc(categories.name));
      expect(stored.map((c) => c.name)).toEqual(menu);
      // Each part's save renews its own form in place: no second form left behind (a form
      // remounted on a refetch once left its old self in the page).
      await expect(page.getByTestId('desk-home-slides').count()).resolves.toBe(1);
      await expect(page.getByTestId('desk-home-categories').count()).resolves.toBe(1);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
