// The assistant's product cards in the browser (issue 21), against the production build in workerd
// and the fake Gemini: a shopper asks for dresses and for the Ankara wrap dress in M, and sees
// cards with a picture, the name, the price and the stock asked about, read from the seeded
// database; a card opens the piece; the reopened chat shows the cards again; axe finds nothing
// serious in light or dark. At 390 and 1366 px.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { formatUGX } from '#core/money.ts';
import { createDb } from '#db/client.ts';
import { products, productVariants } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

/** Waits for the last reply to finish: its cards (the last part of a reply) are shown. */
async function cardsOfLastReply(page: Page): Promise<Locator> {
  const reply = page.locator('li', { has: page.locator('[data-role="assistant"]') }).last();
  const cards = reply.getByTestId('chat-product-card');
  await cards.first().waitFor({ timeout: 15_000 });
  return cards;
}

/** Nothing in the panel is wider than it or has scrolled sideways (a row of cards scrolls itself,
 * nothing else): a focus or a scroll into view would shift the whole panel. */
async function panelInPlace(page: Page) {
  const chat = page.getByRole('region', { name: 'Support chat' });
  const state = await chat.evaluate((panel) => ({
    overflow: panel.scrollWidth - panel.clientWidth,
    shifted: [panel, ...panel.querySelectorAll('*')]
      .filter(
        (el) => el.scrollLeft !== 0 && el.getAttribute('aria-label') !== 'Products in this reply',
      )
      .map((el) => el.outerHTML.slice(0, 80)),
  }));
  expect(state).toEqual({ overflow: 0, shifted: [] });
}

async function ask(page: Page, text: string) {
  const chat = page.getByRole('region', { name: 'Support chat' });
  const before = await page.getByTestId('chat-product-card').count();
  await chat.getByLabel('Your message').fill(text);
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect
    .poll(() => page.getByTestId('chat-product-card').count(), { timeout: 15_000 })
    .toBeGreaterThan(before);
  return cardsOfLastReply(page);
}

/** Every picture in the cards has loaded something (the piece, or the placeholder if it broke)
 * and sits at the card's left edge. */
async function picturesShown(cards: Locator) {
  for (const card of await cards.all()) {
    const [cardBox, imgBox] = [await card.boundingBox(), await card.locator('img').boundingBox()];
    expect((imgBox?.x ?? 0) - (cardBox?.x ?? 0)).toBeLessThan(10);
  }
  for (const img of await cards.locator('img').all()) {
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    const box = await img.boundingBox();
    expect(box?.width).toBeGreaterThan(40);
    expect(box?.height).toBeGreaterThan(50);
  }
}

describe('the assistant’s product cards', () => {
  for (const [label, viewport] of [
    ['1366', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`a shopper asks, sees product cards with picture, name, price and a working link (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Amina Nansubuga', { phone: '+256772000011' });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/shop');
      await page.getByRole('button', { name: 'Ask duuka' }).click();
      const chat = page.getByRole('region', { name: 'Support chat' });
      await chat.getByRole('button', { name: 'Product Inquiries' }).click();
      // The greeting names no product: no cards.
      await chat.getByText('Hello! Thanks for your message.').waitFor({ timeout: 15_000 });
      await expect(page.getByTestId('chat-product-card').count()).resolves.toBe(0);

      // A search: each card is a real product the reply names, linked to its page.
      const found = await ask(page, 'Show me dresses');
      const count = await found.count();
      expect(count).toBeGreaterThan(1);
      const replyText = await page.locator('[data-role="assistant"]').last().textContent();
      const hrefs = await found.evaluateAll((links) =>
        links.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''),
      );
      const slugs = hrefs.map((href) => href.replace(/^\/products\//, ''));
      const real = await db
        .select({ slug: products.slug, name: products.productName, price: products.price })
        .from(products)
        .where(inArray(products.slug, slugs));
      expect(real).toHaveLength(count);
      for (const [i, slug] of slugs.entries()) {
        const piece = real.find((p) => p.slug === slug);
        const card = found.nth(i);
        expect(replyText).toContain(piece?.name);
        await expect(card.textContent()).resolves.toContain(piece?.name);
        await expect(card.textContent()).resolves.toContain(formatUGX(piece?.price));
      }
      await picturesShown(found);
      await panelInPlace(page);
      await page.screenshot({ path: `${SHOTS}/chat-cards-${label}-search.png` });

      // One piece in one size: the card carries the stock of M in each colour, from the database.
      const asked = await ask(page, 'Do you have the Ankara wrap dress in M?');
      await expect(asked.count()).resolves.toBe(1);
      const stock = await db
        .select({ label: productVariants.label, stock: productVariants.stock })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(
          and(
            eq(products.slug, 'ankara-wrap-dress'),
            sql`${productVariants.options}->>'Size' = 'M'`,
          ),
        );
      const indigo = stock.find((v) => v.label === 'M · Indigo')?.stock ?? -1;
      expect(indigo).toBeGreaterThan(0);
      const answer = await page.locator('[data-role="assistant"]').last().textContent();
      expect(answer).toContain(`M · Indigo: ${indigo} left`);
      const card = asked.first();
      await expect(card.getAttribute('href')).resolves.toBe('/products/ankara-wrap-dress');
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Ankara Wrap Dress');
      expect(text).toContain('UGX 145,000');
      expect(text).toContain(`Indigo ${indigo} left`);
      await picturesShown(asked);
      // A card is one link, named by its text: a screen reader hears the piece, price and stock.
      await expect(
        page.getByRole('link', { name: /Ankara Wrap Dress.*UGX 145,000.*M/ }).count(),
      ).resolves.toBe(1);

      await panelInPlace(page);
      await page.screenshot({ path: `${SHOTS}/chat-cards-${label}-light.png` });
      expect(await seriousViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await settle(page);
      await page.screenshot({ path: `${SHOTS}/chat-cards-${label}-dark.png` });
      expect(await seriousViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // Keyboard: the card takes focus and Enter opens the piece inside the shop.
      await card.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/products/ankara-wrap-dress');
      await page.getByRole('heading', { level: 1, name: 'Ankara Wrap Dress' }).waitFor();
      if (viewport === PHONE) {
        // On a phone the panel folds to its bar so the piece shows; the chat is kept.
        await chat.getByRole('button', { name: 'Maximise chat' }).click();
      }
      await expect(chat.getByTestId('chat-product-card').count()).resolves.toBe(count + 1);

      // Reopened later, the chat shows the cards again (stored with the messages).
      await page.reload();
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await page.getByRole('button', { name: 'Ask duuka' }).click();
      const again = await cardsOfLastReply(page);
      await expect(again.first().textContent()).resolves.toContain('Ankara Wrap Dress');
      await expect(page.getByTestId('chat-product-card').count()).resolves.toBe(count + 1);
      expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    });
  }
});
