// "Forgot password?" in the browser, at a phone's width and a desktop's: the link is mailed (the
// local outbox, what /dev/mailbox shows), opens the set-new-password screen, the new password
// signs in, the old one is refused, and a session on another device is signed out.
import { afterAll, describe, expect, it } from 'vitest';
import { RESET_TEXT, TEXT } from '#core/account.ts';
import { createDb } from '#db/client.ts';
import { mailedLink } from '#local/mailed-link.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { closeBrowser, DESKTOP, newPage, PHONE } from '../support/browser.ts';
import { shop } from '../support/shop.ts';
import { SHOPPER_PASSWORD, signIn, verifiedShopper } from '../support/shoppers.ts';

const db = createDb(shop().databaseUrl);
const SHOTS = 'tests/e2e/screenshots';
afterAll(closeBrowser);

describe('forgot password', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`mails a link, sets a new password and signs other devices out (${viewport.width} px)`, async () => {
      const shopper = await verifiedShopper(db, 'Brenda Nansubuga');
      const elsewhere = await newPage(viewport);
      await signIn(elsewhere.page, shopper);
      await elsewhere.page.goto('/profile');
      await elsewhere.page.getByLabel('Full name', { exact: true }).waitFor();

      const { page, errors } = await newPage(viewport);
      await page.goto('/login');
      await page.getByLabel('Email', { exact: true }).fill(shopper.email);
      await page.getByRole('link', { name: RESET_TEXT.forgotLink }).click();
      await page.getByRole('heading', { name: RESET_TEXT.title, level: 1 }).waitFor();
      // The address typed on the login screen comes along.
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(shopper.email);
      await expectNoSeriousViolations(page, `forgot-password-${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/forgot-password-${viewport.width}.png` });
      const asked = new Date(Date.now() - 1000);
      await page.getByRole('button', { name: RESET_TEXT.send }).click();
      await page.getByText(RESET_TEXT.sent(shopper.email)).waitFor();

      // An address without an account reads exactly the same.
      const stranger = await newPage(viewport);
      await stranger.page.goto('/forgot-password');
      const nobody = `nobody-${Date.now()}@example.ug`;
      await stranger.page.getByLabel('Email', { exact: true }).fill(nobody);
      await stranger.page.getByRole('button', { name: RESET_TEXT.send }).click();
      await stranger.page.getByText(RESET_TEXT.sent(nobody)).waitFor();

      await page.goto(await mailedLink(db, shopper.email, asked));
      await page.getByRole('heading', { name: RESET_TEXT.newTitle, level: 1 }).waitFor();
      await expectNoSeriousViolations(page, `reset-password-${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/reset-password-${viewport.width}.png` });
      // The change-password rules, before anything is sent.
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('Confirm new password', { exact: true }).fill('short');
      await page.getByRole('button', { name: RESET_TEXT.save }).click();
      await page.getByText(TEXT.newPasswordTooShort).waitFor();
      await page.getByLabel('New password', { exact: true }).fill('mengo-hill-9');
      await page.getByLabel('Confirm new password', { exact: true }).fill('mengo-hill-8');
      await page.getByRole('button', { name: RESET_TEXT.save }).click();
      await page.getByText(TEXT.passwordsDiffer).waitFor();
      await page.getByLabel('Confirm new password', { exact: true }).fill('mengo-hill-9');
      await page.getByRole('button', { name: RESET_TEXT.save }).click();
      await page.waitForURL(/\/login$/);
      await page.getByText(RESET_TEXT.changed).waitFor();
      await page.screenshot({ path: `${SHOTS}/login-after-reset-${viewport.width}.png` });

      // The other device is signed out at once.
      await elsewhere.page.goto('/profile');
      await elsewhere.page.getByRole('heading', { name: 'Access Required', level: 1 }).waitFor();

      expect([...errors, ...stranger.errors, ...elsewhere.errors]).toEqual([]);

      // The old password is refused (a 401 the console shows), the new one signs in.
      await page.getByLabel('Email', { exact: true }).fill(shopper.email);
      await page.getByLabel('Password', { exact: true }).fill(SHOPPER_PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText(TEXT.invalidCredentials).waitFor();
      await page.getByLabel('Password', { exact: true }).fill('mengo-hill-9');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => url.pathname === '/');

      // The link was used: opened again, it says so and offers a new one.
      await page.goto(await mailedLink(db, shopper.email, asked));
      await page.getByLabel('New password', { exact: true }).fill('another-one-7');
      await page.getByLabel('Confirm new password', { exact: true }).fill('another-one-7');
      await page.getByRole('button', { name: RESET_TEXT.save }).click();
      await page.getByText(RESET_TEXT.linkInvalid).waitFor();
      expect(await page.getByRole('link', { name: RESET_TEXT.askAgain }).count()).toBe(1);
      // The only failed requests are the two refusals asked for: the old password, the used link.
      expect(errors).toEqual([
        expect.stringContaining('status of 401'),
        expect.stringContaining('status of 400'),
      ]);
    });
  }
});
