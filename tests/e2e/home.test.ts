import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '#db/client.ts';
import { listNewest } from '#server/services/catalogue-service.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';

afterAll(closeBrowser);

describe('home page', () => {
  it('is rendered on the server in workerd with products from the database', async () => {
    const newest = await listNewest(createDb(shop().databaseUrl), 8);
    expect(newest.length).toBe(8);
    const response = await fetch(shop().url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    for (const product of newest) expect(html).toContain(escapeHtml(product.name));
    expect(html).toContain('Featured Collection');
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows the collections to a shopper at ${viewport.width}px`, async () => {
      const { page, errors } = await newPage(viewport);
      await page.goto('/');
      const newArrivals = page.getByRole('region', { name: 'New Arrivals' });
      await expect(newArrivals.getByTestId('product-card').count()).resolves.toBe(8);
      const featured = page.getByRole('region', { name: 'Featured Collection' });
      await expect(featured.getByTestId('product-card').count()).resolves.toBe(8);
      await expect(
        featured
          .getByText(/^UGX \d{1,3}(,\d{3})+$/)
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll("'", '&#x27;');
}
