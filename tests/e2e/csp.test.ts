// The pages work in Chromium under their Content-Security-Policy: they hydrate, navigate on the
// client and react to input, and the browser reports no policy violation (the inline scripts of
// TanStack Start and React, and the appearance boot script, all carry the page's nonce).
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { SETTINGS_STORAGE_KEY } from '#core/settings-rules.ts';
import { createDb } from '#db/client.ts';
import { productSlugs } from '#server/services/catalogue-service.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

afterAll(closeBrowser);

/** Records every CSP violation the page reports, from before its first script runs. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

async function openUnderPolicy(page: Page, path: string) {
  const response = await page.goto(path);
  const csp = (await response?.allHeaders())?.['content-security-policy'] ?? '';
  expect(csp, path).toMatch(/script-src 'self' 'nonce-[^']+'/);
}

describe('pages under the Content-Security-Policy', () => {
  it('home: hydrates, a product dialog opens, its page by client-side navigation', async () => {
    const { page, errors } = await newPage(DESKTOP);
    const violations = await watchViolations(page);
    await openUnderPolicy(page, '/');
    // Home's first card, whatever piece it is (Home may come from the edge cache, and other
    // files add pieces to this shop): its card opens its dialog (React state; a piece in sizes
    // asks for them first), and the dialog links to the product's page.
    await page
      .getByTestId('product-card')
      .first()
      .getByRole('button', { name: /^View / })
      .click();
    const details = page.getByRole('link', { name: 'View full details' });
    const href = await details.getAttribute('href');
    expect(href).toMatch(/^\/products\//);
    await details.click();
    await page.waitForURL(`**${href}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a product page, opened directly, answers input', async () => {
    const [product] = await productSlugs(createDb(shop().databaseUrl));
    expect(product).toBeDefined();
    const { page, errors } = await newPage(PHONE);
    const violations = await watchViolations(page);
    await openUnderPolicy(page, `/products/${product?.slug}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The side menu is React state: it opens only if the page's scripts run.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Register' }).waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('/login: the boot script applies cached appearance, the form reacts', async () => {
    const { page, errors } = await newPage(DESKTOP);
    const violations = await watchViolations(page);
    await openUnderPolicy(page, '/');
    // The inline boot script in <head> applies the shopper's cached appearance before paint.
    await page.evaluate((key) => {
      localStorage.setItem(key, JSON.stringify({ appearance: { darkMode: true } }));
    }, SETTINGS_STORAGE_KEY);
    await openUnderPolicy(page, '/login');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByLabel('Password', { exact: true }).fill('secret-words');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true }).getAttribute('type')).resolves.toBe(
      'text',
    );
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
