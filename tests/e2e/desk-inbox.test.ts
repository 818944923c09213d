// The staff's WhatsApp inbox in the browser (issue 37), against the production build and the fake
// Cloud API (local/fakes/whatsapp-fake.ts, which posts its signed webhooks to this shop): a
// shopper writes from the fake phone; at 360 px a staff member sees the unread thread, opens it,
// replies, and the fake phone's page shows the reply (the desk then reads it as read); at 1366 px
// the owner sees the shopper's account, cart and orders beside the thread, sends a piece's card
// and a cart link from the catalogue's search, follows an order to its page, and finds the reply
// box shut once the 24-hour window has passed. Nothing wider than the window, light and dark.
import { randomInt, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { WHATSAPP_ASSISTANT_TEXT, WHATSAPP_TEXT } from '#core/whatsapp.ts';
import { createDb } from '#db/client.ts';
import { cartItems, whatsappContacts } from '#db/schema/index.ts';
import { placeOrder } from '#server/services/checkout-service.ts';
import { setRole } from '#server/services/staff-service.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { addProduct } from '../support/catalogue.ts';
import { shop } from '../support/shop.ts';
import { deskOwner, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/duuka';
/** The fake Cloud API (its phone pages and its test controls). */
const FAKE = new URL(shop().fakeEnv.WHATSAPP_BASE_URL ?? '').origin;

/** A number of this run's own. */
const aNumber = () => `+2567720${String(randomInt(10_000, 99_999))}`;

/** The shopper writes from her phone: the fake posts the signed webhook and waits for the shop. */
async function writes(number: string, text: string, name: string) {
  const answer = await fetch(`${FAKE}/__inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ number, text, name }),
  });
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { status: number }).status).toBe(200);
}

/** What the fake received from the shop for this number. */
async function sentTo(number: string): Promise<{ type: string; text: string }[]> {
  const answer = await fetch(`${FAKE}/__sent?number=${encodeURIComponent(number)}`);
  return (await answer.json()) as { type: string; text: string }[];
}

/** Nothing wider than the window, in light and in dark (screenshots of both when asked). */
async function fitsAndShoot(page: Page, width: number, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await settle(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${shot} ${scheme}`).toBeLessThanOrEqual(width);
    if (process.env.E2E_SHOTS) {
      await page.screenshot({ path: `${SHOTS}/${shot}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the WhatsApp inbox', () => {
  it('360 px: the unread thread, read, answered; the reply on the shopper’s phone', async () => {
    const number = aNumber();
    await writes(
      number,
      'Hello! Is the Busuuti in size M? I need it for a wedding on Saturday.',
      'Aisha Nambi',
    );
    const staff = await verifiedShopper(db, 'Sam Staff');
    await setRole(db, staff.email, 'staff');
    const { page, errors } = await newPage(SMALL_PHONE);
    await signIn(page, staff);
    await page.goto('/desk');
    // Inbox is a daily place on the phone's bar.
    await page.getByTestId('desk-bottom-bar').getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL('**/desk/inbox');

    const thread = page.getByTestId('inbox-thread').filter({ hasText: 'Aisha Nambi' });
    await thread.waitFor({ timeout: 15_000 });
    expect(await thread.getByTestId('inbox-unread').innerText()).toContain('1');
    await expect
      .poll(() => thread.innerText(), { timeout: 5_000 })
      .toContain('Is the Busuuti in size M?');
    await fitsAndShoot(page, SMALL_PHONE.width, 'desk-inbox-list-360');

    await thread.click();
    await page.waitForURL(/\/desk\/inbox\?phone=/);
    const view = page.getByTestId('thread');
    await view.getByTestId('thread-title').filter({ hasText: 'Aisha Nambi' }).waitFor();
    await view.getByTestId('bubble-in').filter({ hasText: 'size M' }).waitFor();
    expect(await page.getByTestId('inbox-threads').isVisible()).toBe(false);
    await view.getByTestId('reply-open').waitFor();
    // Opening the thread read it.
    await expect
      .poll(
        async () =>
          (await db.select().from(whatsappContacts).where(eq(whatsappContacts.phone, number)))[0]
            ?.readAt ?? null,
        { timeout: 10_000 },
      )
      .not.toBeNull();

    const reply = 'Yes, M is in stock. Shall I keep one for you until Friday?';
    await view.getByTestId('reply-text').fill(reply);
    await view.getByRole('button', { name: 'Send' }).click();
    const mine = view.getByTestId('bubble-out').filter({ hasText: reply });
    await mine.waitFor({ timeout: 15_000 });
    expect(await view.getByTestId('reply-text').inputValue()).toBe('');
    expect(await mine.getByTestId('bubble-by').innerText()).toBe('Sam Staff');
    await expect
      .poll(() => mine.getByTestId('bubble-status').innerText(), { timeout: 15_000 })
      .toBe('Delivered');
    await fitsAndShoot(page, SMALL_PHONE.width, 'desk-inbox-thread-360');

    // The shopper's phone shows it; opening it reads it, and the desk says so.
    expect((await sentTo(number)).map((m) => [m.type, m.text])).toEqual([['text', reply]]);
    const phone = await page.context().newPage();
    await phone.goto(`${FAKE}/phone/${number.slice(1)}`);
    await phone.getByText(reply).waitFor();
    await phone.close();
    await expect
      .poll(() => mine.getByTestId('bubble-status').innerText(), { timeout: 15_000 })
      .toBe('Read');

    // Back to the list: read, the reply last.
    await view.getByTestId('back-to-inbox').click();
    await thread.waitFor();
    await expect
      .poll(() => thread.getByTestId('inbox-unread').count(), { timeout: 15_000 })
      .toBe(0);
    expect(await thread.innerText()).toContain(`You: ${reply}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('1366 px: the shopper’s account, cart and orders beside the thread; a card and a cart link; shut after 24 hours', async () => {
    const number = aNumber();
    const shopper = await verifiedShopper(db, 'Nakato Achieng', { phone: number });
    const dress = await addProduct(db, {
      name: `Inbox Kitenge Wrap ${randomUUID().slice(0, 4)}`,
      price: 135_000,
      stock: 4,
    });
    const placed = await placeOrder(
      db,
      { id: shopper.id, email: shopper.email, name: shopper.name },
      {
        orderId: randomUUID(),
        lines: [{ variantId: dress.variantId, quantity: 1 }],
        paymentMethod: 'cash_on_delivery',
      },
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.problem));
    await db
      .insert(cartItems)
      .values({ userId: shopper.id, variantId: dress.variantId, quantity: 2 });
    await writes(
      number,
      'Hi, when will my order arrive? And can I get two more of the wrap?',
      'Nakato',
    );

    // She asked the assistant for a person (as server/services/whatsapp-assistant.ts hands over).
    await db
      .update(whatsappContacts)
      .set({ handedOverAt: sql`now()` })
      .where(eq(whatsappContacts.phone, number));
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, await deskOwner(db));
    await page.goto('/desk/inbox');
    // Inbox in the desktop row, which still fits on one row.
    const top = page.getByTestId('desk-top-bar');
    await top.getByRole('link', { name: 'Inbox' }).waitFor();
    expect(
      await top
        .locator('ul')
        .first()
        .evaluate((ul) => ul.scrollWidth <= ul.clientWidth),
    ).toBe(true);
    await page.getByText('Choose a conversation to read it.').waitFor();
    const thread = page.getByTestId('inbox-thread').filter({ hasText: 'Nakato' });
    await thread.click();
    const view = page.getByTestId('thread');
    await view.getByTestId('bubble-in').filter({ hasText: 'two more of the wrap' }).waitFor();
    // The list stays in sight beside the thread.
    expect(await page.getByTestId('inbox-threads').isVisible()).toBe(true);
    // Waiting for a person, in the list and on the thread, until staff write.
    await thread.getByTestId('inbox-asks').waitFor();
    await view.getByTestId('thread-asks').waitFor();
    await fitsAndShoot(page, DESKTOP.width, 'desk-inbox-asks-1366');

    const side = page.getByTestId('thread-shopper');
    await side.getByText('Nakato Achieng').waitFor();
    await side.getByText(shopper.email).waitFor();
    await side.getByTestId('shopper-cart').getByText(dress.name).waitFor();
    expect(await side.getByTestId('shopper-cart').innerText()).toContain('UGX 270,000');
    const order = side.getByTestId('shopper-order').first();
    expect(await order.innerText()).toContain(`#${placed.order.orderId.slice(0, 8)}`);
    // Beside, not below: the panel starts level with the thread.
    const [threadBox, sideBox] = await Promise.all([view.boundingBox(), side.boundingBox()]);
    expect(Math.abs((threadBox?.y ?? 0) - (sideBox?.y ?? 999))).toBeLessThan(80);
    expect(sideBox?.x ?? 0).toBeGreaterThan((threadBox?.x ?? 0) + (threadBox?.width ?? 0) - 1);

    // A piece's card and a cart link, picked with the catalogue's search.
    const tools = view.getByTestId('inbox-tools');
    await tools.locator('summary').click();
    await tools.getByTestId('inbox-search').fill(dress.name);
    const found = tools.getByTestId('inbox-found').first();
    await found.waitFor({ timeout: 10_000 });
    await found.getByRole('button', { name: 'Send card' }).click();
    await view
      .getByTestId('bubble-out')
      .filter({ hasText: 'UGX 135,000' })
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => view.getByTestId('thread-asks').count(), { timeout: 15_000 }).toBe(0);
    await found.getByRole('button', { name: 'Add to link' }).click();
    await found.getByRole('button', { name: 'Add to link' }).click();
    await tools.getByTestId('inbox-link').getByText(dress.name).waitFor();
    await tools.getByRole('button', { name: 'Send cart link' }).click();
    const link = view.getByTestId('bubble-out').filter({ hasText: '/cart?add=' });
    await link.waitFor({ timeout: 15_000 });
    expect(await link.innerText()).toContain(`2 × ${dress.name}`);
    const sent = await sentTo(number);
    expect(sent.map((m) => m.text).join('\n')).toContain(
      `${shop().url}/cart?add=${dress.variantId}x2`,
    );
    expect(sent[0]?.text).toContain(
      `${shop().url}/products/${dress.slug}?variant=${dress.variantId}`,
    );
    await fitsAndShoot(page, DESKTOP.width, 'desk-inbox-tools-1366');
    await page.evaluate(() => window.scrollTo(0, 0));
    await fitsAndShoot(page, DESKTOP.width, 'desk-inbox-thread-1366');

    // Her order on the desk.
    await order.click();
    await page.waitForURL(`**/desk/orders/${placed.order.orderId}`);
    await page.getByTestId('desk-order').waitFor();

    // A day and more later: the reply box is shut, saying why; nothing can be sent.
    await fetch(`${FAKE}/__age`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number, seconds: 25 * 3600 }),
    });
    await db
      .update(whatsappContacts)
      .set({ lastInboundAt: sql`now() - interval '25 hours'` })
      .where(eq(whatsappContacts.phone, number));
    await page.goto(`/desk/inbox?phone=${encodeURIComponent(number)}`);
    await page.getByTestId('reply-shut').getByText(WHATSAPP_TEXT.outsideWindow).waitFor();
    expect(await page.getByTestId('reply-text').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId('inbox-tools').count()).toBe(0);
    expect(await page.getByTestId('thread-window').innerText()).toMatch(/window shut/i);
    await fitsAndShoot(page, DESKTOP.width, 'desk-inbox-shut-1366');

    // When the assistant answers, kept; this month's messages as Meta prices them.
    await page.goto('/desk/inbox');
    const mode = page.getByLabel('The assistant answers');
    await mode.selectOption('after_hours');
    await page.getByText(WHATSAPP_ASSISTANT_TEXT.modeSaved).first().waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByLabel('The assistant answers').inputValue(), { timeout: 10_000 })
      .toBe('after_hours');
    expect(await page.getByTestId('whatsapp-usage').innerText()).toMatch(/^This month: \d+/);
    await page.getByLabel('The assistant answers').selectOption('off'); // the shop is shared
    await page.getByText(WHATSAPP_ASSISTANT_TEXT.modeSaved).first().waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
