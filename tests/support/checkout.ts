// The checkout in browser tests: since issue 23 a delivery asks for the area a rider goes to.
import type { Page } from 'playwright-core';

/** Types the area of the default option (Kampala delivery), as a shopper must before paying. */
export async function fillDeliveryArea(page: Page, area = 'Ntinda'): Promise<void> {
  await page.getByLabel('Area', { exact: true }).fill(area);
}
