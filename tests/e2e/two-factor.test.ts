// Two-factor sign-in in the browser: a shopper turns it on in Settings with an authenticator app
// (the test computes the app's codes from the key shown), and the next sign-in asks for a code,
// refusing a wrong one. At desktop and phone widths.
import { afterAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_TEXT } from '#core/account.ts';
import { createDb } from '#db/client.ts';
import { seriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { SHOPPER_PASSWORD, signIn, verifiedShopper } from '../support/shoppers.ts';
import { totpCode } from '../support/totp.ts';

const db = createDb(shop().databaseUrl);
afterAll(closeBrowser);
const SHOTS = '/tmp/duuka';

describe('two-factor sign-in', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`is turned on with a code from the app, then asked at sign-in (${label})`, async () => {
      const shopper = await verifiedShopper(db, 'Esther Kyomuhendo', { phone: '+256772000001' });
      const { page, errors } = await newPage(viewport);
      await signIn(page, shopper);
      await page.goto('/settings');
      const box = page.getByTestId('two-factor');
      await box.getByText(TWO_FACTOR_TEXT.off).waitFor();
      await box.getByRole('button', { name: TWO_FACTOR_TEXT.turnOn }).click();
      await box.getByLabel(TWO_FACTOR_TEXT.passwordPrompt).fill('not-my-password');
      await box.getByRole('button', { name: TWO_FACTOR_TEXT.turnOn }).click();
      await box.getByText(TWO_FACTOR_TEXT.wrongPassword).waitFor();
      await box.getByLabel(TWO_FACTOR_TEXT.passwordPrompt).fill(SHOPPER_PASSWORD);
      await box.getByRole('button', { name: TWO_FACTOR_TEXT.turnOn }).click();
      await box.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const key = (await box.getByTestId('two-factor-key').textContent()) ?? '';
      expect(key).toMatch(/^[A-Z2-7]{16,}$/);
      await page.screenshot({ path: `${SHOTS}/two-factor-setup-${label}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await box.getByLabel(TWO_FACTOR_TEXT.codeLabel).fill(totpCode(key));
      await box.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
      await box.getByRole('list', { name: 'Backup codes' }).waitFor();
      await box.getByRole('button', { name: 'Done' }).click();
      await box.getByText(TWO_FACTOR_TEXT.on).waitFor();

      // A new browser: the password alone is not enough.
      const fresh = await newPage(viewport);
      await fresh.page.goto('/login');
      await fresh.page.getByLabel('Email', { exact: true }).fill(shopper.email);
      await fresh.page.getByLabel('Password', { exact: true }).fill(SHOPPER_PASSWORD);
      await fresh.page.getByRole('button', { name: 'Sign In' }).click();
      await fresh.page.getByText(TWO_FACTOR_TEXT.askCode).waitFor();
      await fresh.page.getByLabel(TWO_FACTOR_TEXT.codeLabel).fill('000000');
      await fresh.page.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
      await fresh.page.getByText(TWO_FACTOR_TEXT.wrongCode).waitFor();
      await fresh.page.screenshot({
        path: `${SHOTS}/two-factor-login-${label}.png`,
        fullPage: true,
      });
      await fresh.page.getByLabel(TWO_FACTOR_TEXT.codeLabel).fill(totpCode(key));
      await fresh.page.getByRole('button', { name: TWO_FACTOR_TEXT.verify }).click();
      await fresh.page.waitForURL((url) => url.pathname === '/');
      const session = await fresh.page.request.get('/api/auth/get-session');
      expect(((await session.json()) as { user?: { email: string } }).user?.email).toBe(
        shopper.email,
      );
      // Only the refusals the shopper was shown: the wrong password (400) and the wrong code (401).
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
      expect(fresh.errors.every((e) => /status of 401/.test(e))).toBe(true);
    });
  }
});
