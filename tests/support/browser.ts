// Playwright (playwright-core) driving Chromium: Debian's when installed, else the one inside the
// npm package @sparticuz/chromium (local/chromium.ts), with the flags this machine needs.
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

import { chromiumLaunch, launchOptions } from '#local/chromium.ts';
import { timed } from './profile.ts';
import { shop } from './shop.ts';
import { anyClientIp } from './shoppers.ts';

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** The narrowest phone the desk is made for (issue 22: a phone in the shop). */
export const SMALL_PHONE = { width: 360, height: 780 };

let browser: Browser | undefined;

export async function openBrowser(): Promise<Browser> {
  browser ??= await chromium.launch(launchOptions(await chromiumLaunch()));
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** A fresh page (own cookies and storage) at the given viewport; page errors fail the test.
 * `environment`: the visitor's browser otherwise (time zone, locale, colour scheme…). The shop's
 * service worker is blocked unless asked for (`serviceWorkers: 'allow'`): a test's `page.route`
 * and its reading of responses see the page's own requests, not the worker's. */
export async function newPage(
  viewport = DESKTOP,
  environment: BrowserContextOptions = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await (await openBrowser()).newContext({
    serviceWorkers: 'block',
    ...environment,
    viewport,
    baseURL: shop().url,
    isMobile: viewport.width < 600,
    hasTouch: viewport.width < 600,
    // Each page is its own client, as on Cloudflare: the per-IP limits (sign-in: 5 a minute) of
    // one test never refuse another's.
    extraHTTPHeaders: { ...environment.extraHTTPHeaders, 'cf-connecting-ip': anyClientIp() },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  // Every navigation waits until React has hydrated, so clicks reach the app, not bare HTML.
  const goto = page.goto.bind(page);
  page.goto = (url, options) =>
    timed('page load', async () => {
      const response = await goto(url, options);
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      return response;
    });
  // Pictures saved for a person to look at (every `screenshot({ path })` in the tests; none is
  // compared by a test) are taken only when asked, E2E_SHOTS=1: a full-page one of a long phone
  // page took seconds on a busy machine, and most runs have nobody looking (issue 32).
  const screenshot = page.screenshot.bind(page);
  page.screenshot = (options) =>
    options?.path && !process.env.E2E_SHOTS
      ? Promise.resolve(Buffer.alloc(0))
      : timed(options?.fullPage ? 'screenshot, full page' : 'screenshot', () =>
          screenshot(options),
        );
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}

/** Waits until colour transitions started by a scheme change have run (getComputedStyle reads a
 * transition's current value: measured mid-way, dark text on a dark panel looks like a failure). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => null)),
    ),
  );
}
