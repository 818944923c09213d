import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { contactMessages, newsletterSubscriptions } from '#db/schema/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

afterAll(closeBrowser);

const db = () => createDb(shop().databaseUrl);
const unique = (label: string, width: number) =>
  `${label}.${width}.${Date.now().toString(36)}@Example.UG`;

/**
 * A page at the viewport whose failed requests (status 400+) count as errors too. The browser's
 * own /favicon.ico probe is not the page's doing (the shop's icon is favicon.svg) and is ignored.
 */
async function open(viewport: typeof DESKTOP) {
  const { page, errors } = await newPage(viewport);
  const faviconProbes: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.location().url.endsWith('/favicon.ico')) {
      faviconProbes.push(message.text());
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  const pageErrors = () => {
    const ignored = [...faviconProbes];
    return errors.filter((error) => {
      const i = ignored.indexOf(error);
      if (i === -1) return true;
      ignored.splice(i, 1);
      return false;
    });
  };
  return { page, pageErrors };
}

/** Toasts close by themselves after 3 s; the audit looks at the page once they have gone. */
async function toastsGone(page: Page) {
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** Waits until React has hydrated the page: the form's submit buttons are enabled then. */
async function hydrated(page: Page) {
  await page
    .getByRole('button', { name: 'Subscribe' })
    .and(page.locator(':enabled'))
    .waitFor({ state: 'visible' });
}

describe('About page', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`tells the story in every section at ${viewport.width}px, with no serious a11y issue`, async () => {
      const { page, pageErrors } = await open(viewport);
      await page.goto('/about');
      await expect(page.title()).resolves.toBe('About · duuka');
      await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toMatch(
        /\/about$/,
      );
      await expect(
        page.locator('meta[name="description"]').getAttribute('content'),
      ).resolves.toMatch(/^Our story: a small Kampala boutique founded in 2015/);
      const main = page.locator('main');
      await expect(main.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Our Story',
      );
      for (const name of [
        'From Kampala to the World',
        'Our Core Values',
        'Meet The Founders',
        'Ready to Wear Your Story?',
      ]) {
        await expect(main.getByRole('heading', { name, level: 2 }).isVisible()).resolves.toBe(true);
      }
      const origin = main.getByRole('region', { name: 'From Kampala to the World' });
      await expect(origin.textContent()).resolves.toMatch(/founded in 2015 as a small boutique/);
      await expect(origin.textContent()).resolves.toMatch(/internationally recognised brand/);

      const values = main.getByRole('region', { name: 'Our Core Values' });
      await expect(values.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual([
        'Sustainability',
        'Quality Craftsmanship',
        'Community Focus',
        'African Inspiration',
      ]);

      const founders = main.getByRole('region', { name: 'Meet The Founders' }).getByRole('article');
      await expect(founders.count()).resolves.toBe(3);
      const roles = ['Creative Director', 'Production Lead', 'Community Relations'];
      for (const [i, role] of roles.entries()) {
        const card = founders.nth(i);
        await expect(card.textContent()).resolves.toContain(role);
        await expect(card.getByRole('heading', { level: 3 }).textContent()).resolves.toMatch(
          /\w+ \w+/,
        );
        const portrait = card.getByRole('img');
        await portrait.scrollIntoViewIfNeeded();
        await expect
          .poll(() => portrait.evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBeGreaterThan(0);
      }

      const cta = main.getByRole('link', { name: 'Explore Our Collections' });
      await expect(cta.getAttribute('href')).resolves.toBe('/shop');
      await expect(cta.isVisible()).resolves.toBe(true);

      await expect(seriousViolations(page)).resolves.toEqual([]);
      expect(pageErrors()).toEqual([]);
      await page.context().close();
    });
  }
});

describe('Contact page', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`sends a message, confirms it and stores it at ${viewport.width}px`, async () => {
      const { page, pageErrors } = await open(viewport);
      await page.goto('/contact');
      await expect(page.title()).resolves.toBe('Contact · duuka');
      const main = page.locator('main');
      await expect(
        main.getByRole('link', { name: '+256 759 301 488', exact: true }).getAttribute('href'),
      ).resolves.toBe('tel:+256759301488');
      await expect(main.getByRole('link', { name: 'hello@duuka.ug' }).isVisible()).resolves.toBe(
        true,
      );
      // The social pages configured (SOCIAL_LINKS), as real links, on the page and in the footer;
      // a network not configured is not shown at all.
      for (const scope of [main, page.locator('footer')]) {
        await expect(
          scope.getByRole('link', { name: /Instagram/ }).getAttribute('href'),
        ).resolves.toBe('https://www.instagram.com/duuka.ug');
        await expect(
          scope.getByRole('link', { name: /TikTok/ }).getAttribute('href'),
        ).resolves.toBe('https://www.tiktok.com/@duuka.ug');
        await expect(scope.getByRole('link', { name: /Facebook/ }).count()).resolves.toBe(0);
      }
      await expect(page.getByText(/coming soon/i).count()).resolves.toBe(0);
      await expect(seriousViolations(page)).resolves.toEqual([]);
      await hydrated(page);

      const email = unique('grace', viewport.width);
      const form = main.getByRole('form', { name: 'Contact form' });
      await form.getByLabel('Name').fill('Grace Atim');
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Phone').fill('12');
      await form.getByLabel('Message').fill('Is the <b>wrap dress</b> available in green?');
      await form.getByRole('button', { name: 'Send message' }).click();

      // A bad phone number is explained beside the field and nothing is stored.
      const phoneError = form.getByText('Please enter a valid phone number, e.g. 0772 123 456.', {
        exact: true,
      });
      await phoneError.first().waitFor();
      await expect(form.getByLabel('Phone').getAttribute('aria-invalid')).resolves.toBe('true');
      const stored = () =>
        db().select().from(contactMessages).where(eq(contactMessages.email, email.toLowerCase()));
      await expect(stored()).resolves.toEqual([]);

      await form.getByLabel('Phone').fill('0759 301 488');
      await form.getByRole('button', { name: 'Send message' }).click();
      await form.getByText(/Thank you, Grace! Your message has been sent/).waitFor();
      await page.getByText('Message sent. Thank you for contacting us!').waitFor();
      await expect(form.getByLabel('Email').inputValue()).resolves.toBe('');
      await expect(form.getByLabel('Message').inputValue()).resolves.toBe('');
      await toastsGone(page);

      const rows = await stored();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        name: 'Grace Atim',
        phone: '+256759301488',
        comment: 'Is the <b>wrap dress</b> available in green?',
      });
      await expect(seriousViolations(page)).resolves.toEqual([]);
      expect(pageErrors()).toEqual([]);
      await page.context().close();
    });
  }
});

describe('Footer', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`subscribes to the newsletter and goes back to top at ${viewport.width}px`, async () => {
      const { page, pageErrors } = await open(viewport);
      await page.goto('/about');
      const footer = page.getByRole('contentinfo');
      for (const [name, href] of [
        ['Home', '/'],
        ['Shop', '/shop'],
        ['About', '/about'],
        ['Contact', '/contact'],
      ]) {
        await expect(
          footer.getByRole('link', { name, exact: true }).getAttribute('href'),
        ).resolves.toBe(href);
      }
      for (const [name, href] of [
        ['Terms of Service', '/terms'],
        ['Privacy Policy', '/privacy'],
        ['Cookie Policy', '/cookies'],
      ]) {
        await expect(footer.getByRole('link', { name }).getAttribute('href')).resolves.toBe(href);
      }
      // Social pages are the configured ones only.
      await expect(footer.getByRole('link', { name: 'Facebook' }).count()).resolves.toBe(0);
      await expect(
        footer.getByRole('link', { name: /Instagram/ }).getAttribute('target'),
      ).resolves.toBe('_blank');
      await expect(footer.getByText('hello@duuka.ug').isVisible()).resolves.toBe(true);
      await expect(footer.getByText('Mon–Sat').isVisible()).resolves.toBe(true);
      await hydrated(page);

      const email = unique('amara', viewport.width);
      const box = footer.getByLabel('Email address');
      await expect(box.getAttribute('type')).resolves.toBe('email');
      await expect(box.getAttribute('required')).resolves.toBe('');
      await box.fill(email);
      await footer.getByRole('button', { name: 'Subscribe' }).click();
      await footer.getByText(/Thank you for subscribing! New arrivals will reach/).waitFor();
      await page.getByText('Thank you for subscribing!', { exact: true }).waitFor();
      const subscribed = await db()
        .select()
        .from(newsletterSubscriptions)
        .where(and(eq(newsletterSubscriptions.email, email.toLowerCase())));
      expect(subscribed).toHaveLength(1);

      // Subscribing again is fine, and says so.
      await box.fill(email);
      await footer.getByRole('button', { name: 'Subscribe' }).click();
      await footer.getByText(/is already subscribed/).waitFor();

      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      await footer.getByRole('button', { name: 'Back to top' }).click();
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBe(0);
      expect(pageErrors()).toEqual([]);
      await page.context().close();
    });
  }
});
