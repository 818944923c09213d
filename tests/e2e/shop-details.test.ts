// What a premium shop does not show (issue 32, item 16), in Chromium against the production build:
// toasts in the shop's type and shapes on either theme; a colour's dot that keeps its edge (Black
// on the dark theme); the profile's phone problem at the field, and a number typed before the page
// was interactive saved and kept; the assistant's header saying it is an assistant; first visits
// with nothing in the console. Screenshots at 360 and 1366 px, light and dark, under /tmp/duuka-d/.

import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '#core/account.ts';
import { CHAT_TEXT } from '#core/chat.ts';
import { createDb } from '#db/client.ts';
import { profiles } from '#db/schema/index.ts';
import { closeBrowser, DESKTOP, newPage, SMALL_PHONE, settle } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka-d';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

const VIEWPORTS = [
  ['phone', SMALL_PHONE],
  ['desktop', DESKTOP],
] as const;

/** sRGB channels 0–1 of any CSS colour the page can paint, with its alpha, through a canvas. */
function rgbaIn(page: Page, colours: string[]): Promise<number[][]> {
  return page.evaluate((list) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no canvas');
    return list.map((colour) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return [r / 255, g / 255, b / 255, a / 255];
    });
  }, colours);
}

const over = (top: number[], under: number[]) =>
  [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (under[i] ?? 0) * (1 - (top[3] ?? 1)));
const luminance = (rgb: number[]) => {
  const [r = 0, g = 0, b = 0] = rgb.map((c) =>
    c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: number[], b: number[]) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
};

describe('toasts in the shop’s type and shapes', () => {
  for (const [label, viewport] of VIEWPORTS) {
    it(`a toast is set in Manrope, square, on the page’s own paper, light and dark (${label})`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        const { page, errors } = await newPage(viewport);
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await page.goto('/about');
        const footer = page.getByRole('contentinfo');
        await footer
          .getByLabel('Email address')
          .fill(`toast-${randomUUID().slice(0, 8)}@example.ug`);
        await footer.getByRole('button', { name: 'Subscribe' }).click();
        const toast = page.locator('[data-sonner-toast]').first();
        await toast.waitFor();
        await settle(page);
        const look = await toast.evaluate((element) => {
          const style = getComputedStyle(element);
          return {
            font: style.fontFamily,
            radius: style.borderTopLeftRadius,
            background: style.backgroundColor,
            text: style.color,
            paper: getComputedStyle(document.documentElement).backgroundColor,
            ink: getComputedStyle(document.documentElement).color,
          };
        });
        expect(look.font, scheme).toMatch(/^"?Manrope/);
        expect(look.radius, scheme).toBe('0px');
        expect(look.background, scheme).toBe(look.paper);
        expect(look.text, scheme).toBe(look.ink);
        await page.screenshot({ path: `${SHOTS}/toast-${label}-${scheme}.png` });
        expect(errors).toEqual([]);
        await page.context().close();
      }
    });
  }
});

describe('colour dots', () => {
  it('the Black dot keeps a visible edge on the dark theme (3:1 against the page), and White on the light one', async () => {
    for (const [label, viewport] of VIEWPORTS) {
      for (const [scheme, colour] of [
        ['dark', 'Black'],
        ['light', 'White'],
      ] as const) {
        const { page, errors } = await newPage(viewport);
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        // The demo's pieces in those colours (db/seed-data.ts).
        await page.goto(
          colour === 'Black' ? '/products/linen-sunday-slip-dress' : '/products/ribbed-cotton-tee',
        );
        const colours = page.locator('[data-option="Colour"]');
        // Another colour chosen, so the dot sits on the page, not on a chosen pill.
        const other = colours.locator(`label:not(:has(input[value="${colour}"]))`).first();
        // Chosen again if a late re-render (the route's loader re-run by the choice's URL) put
        // the first colour back: this test measures the dot's edge, not the choice (the issue 35
        // closing note records the re-render as found, not fixed).
        await expect
          .poll(async () => {
            if (!(await other.locator('input').isChecked())) await other.click();
            await settle(page);
            return other.locator('input').isChecked();
          })
          .toBe(true);
        const dot = colours
          .locator(`label:has(input[value="${colour}"]) span[aria-hidden]`)
          .first();
        await settle(page);
        const look = await dot.evaluate((element) => {
          const style = getComputedStyle(element);
          const shadow = style.boxShadow === 'none' ? '' : style.boxShadow;
          const face = element.parentElement ? getComputedStyle(element.parentElement) : style;
          return {
            fill: style.backgroundColor,
            edge:
              Number.parseFloat(style.borderTopWidth) > 0
                ? style.borderTopColor
                : (/^(.*?\))\s/.exec(shadow)?.[1] ?? 'transparent'),
            face: face.backgroundColor,
            paper: getComputedStyle(document.documentElement).backgroundColor,
          };
        });
        const [fill = [], edge = [], face = [], paper = []] = await rgbaIn(page, [
          look.fill,
          look.edge,
          look.face,
          look.paper,
        ]);
        const around = (face[3] ?? 0) > 0 ? over(face, paper) : paper.slice(0, 3);
        const drawn = over(edge, over(fill, around));
        expect(contrast(drawn, around), `${colour} on ${scheme} (${label})`).toBeGreaterThanOrEqual(
          3,
        );
        await colours.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/swatch-${colour}-${label}-${scheme}.png` });
        expect(errors).toEqual([]);
        await page.context().close();
      }
    }
  });
});

describe('the profile’s phone', () => {
  for (const [label, viewport] of VIEWPORTS) {
    it(`a wrong number is shown at the field, not in a banner (${label})`, async () => {
      const shopper = await verifiedShopper(db, `Phiona ${label}`);
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/profile');
      const phone = page.getByLabel('Phone', { exact: true });
      await phone.fill('0772 12');
      await page.getByRole('button', { name: 'Save Profile' }).click();
      await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
      const described = (await phone.getAttribute('aria-describedby')) ?? '';
      const texts = await Promise.all(
        described.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
      );
      expect(texts).toContain(TEXT.invalidPhone);
      // Once on the page, under the field: no banner says it again.
      await expect(page.getByText(TEXT.invalidPhone).count()).resolves.toBe(1);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
        .toBe('phone');
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await settle(page);
        await page.screenshot({
          path: `${SHOTS}/profile-phone-${label}-${scheme}.png`,
          fullPage: true,
        });
      }
      const [row] = await db.select().from(profiles).where(eq(profiles.id, shopper.id));
      expect(row?.phone).toBeNull();
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('a number typed before the page is interactive is saved, and stays in the field', async () => {
    const shopper = await verifiedShopper(db, 'Phiona Early');
    const { page, errors } = await newPage(DESKTOP);
    await signIn(page, shopper);
    // The page's scripts are held: the form is the server's HTML until they are let through.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const scripts = /\/assets\/.+\.js$/;
    await page.route(scripts, async (route) => {
      await held;
      await route.continue();
    });
    const loading = page.goto('/profile');
    const phone = page.getByLabel('Phone', { exact: true });
    await phone.fill('0772 555 123');
    release();
    await loading;
    await page.unroute(scripts);
    await expect(phone.inputValue()).resolves.toBe('0772 555 123');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await page.getByText(TEXT.profileSaved).first().waitFor();
    await expect.poll(() => phone.inputValue()).toBe('+256772555123');
    const [row] = await db.select().from(profiles).where(eq(profiles.id, shopper.id));
    expect(row?.phone).toBe('+256772555123');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the assistant says what it is', () => {
  for (const [label, viewport] of VIEWPORTS) {
    it(`its header says an assistant replies, not a team (${label})`, async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto('/about');
      await page.getByRole('button', { name: 'Ask duuka' }).click();
      const panel = page.getByRole('region', { name: 'Support chat' });
      const header = panel.locator('header');
      await header.getByText(CHAT_TEXT.panelNote).waitFor();
      await expect(header.textContent()).resolves.not.toMatch(/team|Mon-Sat/i);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await settle(page);
        await page.screenshot({ path: `${SHOTS}/chat-${label}-${scheme}.png` });
      }
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

describe('first visits', () => {
  const PATHS = ['/', '/search', '/cart', '/profile', '/about', '/orders'];
  // The last hours of the server's year in UTC (21:30 on 31 December): in Kampala (UTC+3) and
  // Tokyo (UTC+9) the next year has begun. The footer's year read in the browser's own zone did
  // not match the server's there (decision 0080).
  const newYearsEve = Date.UTC(new Date().getUTCFullYear(), 11, 31, 21, 30);
  const ENVIRONMENTS = [
    ['phone', SMALL_PHONE, {}, null],
    ['desktop', DESKTOP, {}, null],
    [
      'phone, Kampala, en-UG, New Year',
      SMALL_PHONE,
      { timezoneId: 'Africa/Kampala', locale: 'en-UG' },
      newYearsEve,
    ],
    [
      'desktop, Tokyo, sw-KE, dark, New Year',
      DESKTOP,
      { timezoneId: 'Asia/Tokyo', locale: 'sw-KE', colorScheme: 'dark', reducedMotion: 'reduce' },
      newYearsEve,
    ],
  ] as const;
  for (const [label, viewport, environment, clock] of ENVIRONMENTS) {
    it(`leave nothing in the console: no preload unused, no hydration mismatch (${label})`, async () => {
      const found: string[] = [];
      // Two at a time, each in a fresh context (a first visit), so a loaded machine keeps up.
      for (let at = 0; at < PATHS.length; at += 2) {
        const visits = PATHS.slice(at, at + 2).map(async (path) => {
          // A first visit as a shopper's: the shop's service worker registers too.
          const { page, errors } = await newPage(viewport, {
            ...environment,
            serviceWorkers: 'allow',
          });
          if (clock !== null) await page.context().clock.install({ time: clock });
          page.setDefaultNavigationTimeout(30_000);
          page.on('console', (message) => {
            if (message.type() === 'warning') errors.push(message.text());
          });
          await page.goto(path);
          // Chromium tells of an unused preload 3 s after the load event.
          await page.waitForTimeout(3_500);
          await page.context().close();
          found.push(...errors.map((error) => `${path}: ${error}`));
        });
        await Promise.all(visits);
      }
      expect(found).toEqual([]);
    }, 120_000);
  }
});
