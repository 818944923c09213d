// Bad addresses and bad form input on the production build: each URL answers with the right
// status and a page a shopper can use (never a 500, never valibot's issue list), and the forms
// refuse what the server would refuse before anything is sent.
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { categories } from '#db/schema/index.ts';
import { closeBrowser, DESKTOP, newPage } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

afterAll(closeBrowser);

const shopUrl = () => shop().url;

async function visit(path: string) {
  const response = await fetch(`${shopUrl()}${path}`);
  const html = await response.text();
  // What the shopper reads: the rendered page without the scripts that carry its data and
  // without React's <!-- --> markers between text pieces.
  const text = html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  return { status: response.status, html, text };
}

/** Neither a server error nor the validator's raw issues ever reach the page. */
function noInternals(html: string) {
  expect(html).not.toMatch(/SearchParamError|"kind":\s*"(schema|validation)"|Invalid type/);
  expect(html).not.toContain('An unexpected error occurred.');
}

describe('/products with bad search params', () => {
  it.each([
    'category=abc',
    'category=0',
    'category=-1',
    'category=1.5',
    'category=99999999999999',
    'category=2147483647',
    'category=%00',
    'category=abc&page=2',
  ])('?%s is the 404 "Category not found" view', async (query) => {
    const { status, html, text } = await visit(`/products?${query}`);
    expect(status).toBe(404);
    expect(text).toContain('Category not found');
    expect(text).toContain('The rest of the collection is still here.');
    expect(html).toContain('<title>Category not found · duuka</title>');
    noInternals(html);
  });

  it.each(['page=0', 'page=abc', 'page=-1', 'page=1.5', 'page=99999', 'page=%00'])(
    '?%s is page 1 of the whole collection',
    async (query) => {
      const { status, html, text } = await visit(`/products?${query}`);
      expect(status).toBe(200);
      expect(text).toContain('All Products');
      expect(text).toMatch(/Page 1 of \d+/);
      expect(html).toMatch(/<link rel="canonical" href="[^"]*\/products"/);
      noInternals(html);
    },
  );

  it.each(['group=foo', 'group=1', 'group=%00'])(
    '?%s (an unknown group) is the whole collection, canonically /products',
    async (query) => {
      const { status, html, text } = await visit(`/products?${query}`);
      expect(status).toBe(200);
      expect(text).toContain('All Products');
      expect(html).toMatch(/<link rel="canonical" href="[^"]*\/products"/);
      noInternals(html);
    },
  );

  it('keeps what is good: a real category with a bad page is that category, page 1', async () => {
    const db = createDb(shop().databaseUrl);
    const [bags] = await db.select().from(categories).limit(1);
    if (!bags) throw new Error('no category seeded');
    const { status, text } = await visit(`/products?category=${bags.id}&page=abc&group=foo`);
    expect(status).toBe(200);
    expect(text).toContain(bags.name.replaceAll('&', '&amp;'));
    expect(text).not.toContain('Category not found');
  });
});

describe('NUL and other bad text in addresses', () => {
  it('/shop?q=a%00b searches for "a b"', async () => {
    const { status, html, text } = await visit('/shop?q=Ankara%00Wrap');
    expect(status).toBe(200);
    expect(text).toMatch(/\d+ product\(s\) found for (&quot;|")Ankara Wrap(&quot;|")/);
    noInternals(html);
  });

  it.each([
    '/shop?q=a%00b',
    '/shop?q=%00',
    '/shop?page=abc',
    '/shop?q=dress&page=-1',
    `/shop?q=${'x'.repeat(150)}`,
    '/shop?q=123',
    '/shop?q=null',
    '/shop?q=%7B%22a%22%3A1%7D',
  ])('%s answers 200 with the shop', async (path) => {
    const { status, html, text } = await visit(path);
    expect(status).toBe(200);
    expect(text).toContain('Shop');
    noInternals(html);
  });

  it.each(['/search?q=a%00b', '/search?q=%00', `/search?q=${'x'.repeat(150)}`, '/search?q=123'])(
    '%s answers 200 with the search screen',
    async (path) => {
      const { status, html, text } = await visit(path);
      expect(status).toBe(200);
      expect(text).toContain('Find a piece');
      noInternals(html);
    },
  );

  it.each([
    '/products/a%00b',
    '/products/ankara-wrap-dress%00',
    '/products/%01',
    `/products/${'x'.repeat(300)}`,
  ])('%s is the 404 "Product not found" view', async (path) => {
    const { status, html, text } = await visit(path);
    expect(status).toBe(404);
    expect(text).toContain('Product not found');
    noInternals(html);
  });
});

describe('forms check the server’s rules before sending', () => {
  it('the contact form names a NUL in the message, and sends nothing', async () => {
    const { page } = await newPage(DESKTOP);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/trpc/contact.send')) sent.push(request.url());
    });
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form
      .getByRole('button', { name: 'Send message' })
      .and(page.locator(':enabled'))
      .waitFor();
    await form.getByLabel('Email').fill('grace@example.ug');
    await form.getByLabel('Message').fill('Size 18?\u0000');
    await form.getByRole('button', { name: 'Send message' }).click();
    await form
      .getByText('Message cannot contain invisible control characters.', { exact: true })
      .first()
      .waitFor();
    await expect(form.getByLabel('Message').getAttribute('aria-invalid')).resolves.toBe('true');
    await form.getByLabel('Phone').fill('12');
    await form.getByLabel('Message').fill('Size 18?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await form
      .getByText('Please enter a valid phone number, e.g. 0772 123 456.', { exact: true })
      .first()
      .waitFor();
    expect(sent).toEqual([]);
    await page.context().close();
  });
});
