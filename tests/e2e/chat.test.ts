// The support chat in the browser, against the production build in workerd and the fake Gemini
// (local/fakes/gemini.ts): a visitor is asked to log in; a shopper picks a topic and asks for
// dresses, and the reply streams in word by word from the real catalogue; closing the panel
// mid-reply stops it. At phone and desktop widths.
import { asc, desc, eq, ilike, or } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT, DEFAULT_SUPPORT } from '#core/chat.ts';
import { cannedAnswer } from '#core/chat-answers.ts';
import { createDb } from '#db/client.ts';
import { chatMessages, products } from '#db/schema/index.ts';
import { deliveryChoices } from '#server/services/delivery-service.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

type Watched = Window & { replyLengths: number[][]; replyChangedAt: number; replyRead: number };

/**
 * Records, in the page, every length each assistant bubble takes as it grows (a DOM observer:
 * every step the page shows, however busy the machine that samples it). Before navigating.
 */
async function recordReplies(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const watched = window as unknown as Watched;
    watched.replyLengths = [];
    watched.replyChangedAt = 0;
    watched.replyRead = -1;
    new MutationObserver(() => {
      const bubbles = document.querySelectorAll('[data-role="assistant"]');
      const index = bubbles.length - 1;
      if (index < 0) return;
      const length = (bubbles[index]?.textContent ?? '').length;
      watched.replyLengths[index] ??= [];
      const seen = watched.replyLengths[index];
      if (seen.at(-1) !== length) {
        seen.push(length);
        watched.replyChangedAt = performance.now();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * The next assistant bubble (newer than the last one read) once it has stopped growing: its text
 * and every length it took.
 */
async function watchReply(page: Page): Promise<{ text: string; lengths: number[] }> {
  await page.waitForFunction(
    () => {
      const watched = window as unknown as Watched;
      const newest = document.querySelectorAll('[data-role="assistant"]').length - 1;
      return newest > watched.replyRead && performance.now() - watched.replyChangedAt > 600;
    },
    undefined,
    { timeout: 30_000, polling: 100 },
  );
  return page.evaluate(() => {
    const watched = window as unknown as Watched;
    const bubbles = document.querySelectorAll('[data-role="assistant"]');
    const index = bubbles.length - 1;
    watched.replyRead = index;
    return { text: bubbles[index]?.textContent ?? '', lengths: watched.replyLengths[index] ?? [] };
  });
}

describe('support chat', () => {
  it('asks a visitor to log in', async () => {
    const { page } = await newPage(DESKTOP);
    await recordReplies(page);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.getByRole('button', { name: 'Ask duuka' }).click();
    const chat = page.getByRole('region', { name: 'Support chat' });
    await chat.getByText(CHAT_TEXT.loginToChat).waitFor();
    await chat.getByRole('link', { name: 'Log In' }).waitFor();
  });

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`a shopper picks a topic, asks for dresses and watches the reply stream in (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Sarah Nambi', { phone: '+256772000001' });
      const { page, errors } = await newPage(viewport);
      await recordReplies(page);
      await signIn(page, shopper);
      await page.goto('/shop');
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await page.getByRole('button', { name: 'Ask duuka' }).click();
      const chat = page.getByRole('region', { name: 'Support chat' });
      await chat.getByRole('button', { name: 'Product Inquiries' }).click();
      const greeting = await watchReply(page);
      expect(greeting.text).toContain('Hello! Thanks for your message.');
      // Streamed: the bubble grew in several steps, not in one.
      expect(greeting.lengths.length).toBeGreaterThan(3);

      await chat.getByRole('button', { name: 'Dresses' }).click();
      await expect(chat.getByLabel('Your message').inputValue()).resolves.toBe('Show me dresses');
      await chat.getByLabel('Your message').press('Enter');
      const answer = await watchReply(page);
      // The cheapest piece the catalogue has for 'dress' (name or description), from the database.
      const [cheapest] = await db
        .select()
        .from(products)
        .where(or(ilike(products.productName, '%dress%'), ilike(products.description, '%dress%')))
        .orderBy(asc(products.price), asc(products.id))
        .limit(1);
      expect(answer.text).toContain('Here are some pieces you may like');
      expect(answer.text).toContain(`${cheapest?.productName}, UGX`);
      await page.screenshot({ path: `${SHOTS}/chat-${label}.png` });
      expect(await seriousViolations(page)).toEqual([]);
      const stored = await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.userId, shopper.id))
        .orderBy(desc(chatMessages.createdAt));
      expect(stored.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
      expect(stored[0]?.metadata).toMatchObject({ tools: ['searchProducts'] });
      expect(errors).toEqual([]);
    });
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`when the model fails, the delivery answer is the shop's own options and fees (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Aisha Nalwoga', { phone: '+256772000001' });
      const { page, errors } = await newPage(viewport);
      await recordReplies(page);
      await signIn(page, shopper);
      await page.goto('/');
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await page.getByRole('button', { name: 'Ask duuka' }).click();
      const chat = page.getByRole('region', { name: 'Support chat' });
      await chat.getByRole('button', { name: 'Payment & Shipping' }).click();
      await watchReply(page);
      await chat.getByLabel('Your message').fill('How long does delivery take? [fake:500]');
      await chat.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.locator('[data-role="assistant"]').count(), { timeout: 10_000 })
        .toBe(2);
      const answer = await watchReply(page);
      // As the shop's settings say (read now), never the old free-delivery promise.
      const expected = cannedAnswer('delivery', DEFAULT_SUPPORT, await deliveryChoices(db));
      expect(answer.text.trim()).toBe(expected);
      expect(answer.text).toContain('Kampala delivery: UGX 5,000');
      expect(answer.text).not.toContain('100,000');
      await page.screenshot({ path: `${SHOTS}/chat-delivery-${label}.png` });
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('closing the panel mid-reply stops the reply', async () => {
    const shopper = await verifiedShopper(db, 'Joel Opio', { phone: '+256772000001' });
    const { page } = await newPage(DESKTOP);
    await recordReplies(page);
    await signIn(page, shopper);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.getByRole('button', { name: 'Ask duuka' }).click();
    const chat = page.getByRole('region', { name: 'Support chat' });
    await chat.getByRole('button', { name: 'Other Inquiries' }).click();
    await watchReply(page);
    await chat.getByLabel('Your message').fill('Tell me everything [fake:slow]');
    await chat.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-role="assistant"]').last().getByText('word4').waitFor();
    await chat.getByRole('button', { name: 'Close chat' }).click();
    // The model's answer was cut off when the shop hung up: generation stopped.
    const base = new URL(shop().fakeEnv.GEMINI_BASE_URL ?? '').origin;
    const slow = async () =>
      (
        (await (await fetch(`${base}/__requests`)).json()) as {
          asked: string;
          outcome: string;
          pieces: number;
        }[]
      )
        .filter((r) => r.asked.includes('[fake:slow]'))
        .at(-1);
    await expect.poll(async () => (await slow())?.outcome, { timeout: 10_000 }).toBe('cut-off');
    expect((await slow())?.pieces).toBeLessThan(30);
  });
});
