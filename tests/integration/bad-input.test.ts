// Bad input over HTTP, through the real error formatter: a NUL character (which Postgres text
// cannot hold), other control characters and 5 MB strings get a clear 4xx with a short message,
// never a 500 and never the input echoed back. Search terms are cleaned; stored text is refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '#core/settings-rules.ts';
import {
  contactMessages,
  newsletterSubscriptions,
  profiles,
  userSettings,
} from '#db/schema/index.ts';
import type { Auth } from '#server/auth.ts';
import { signedInShopper, testAuth } from '../support/accounts.ts';
import { addProduct } from '../support/catalogue.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { mutateOverHttp, queryOverHttp } from '../support/trpc.ts';

let test: TestDatabase;
let auth: Auth;
let shopper: Awaited<ReturnType<typeof signedInShopper>>;
let wrapSlug: string;

beforeAll(async () => {
  test = await openTestDatabase();
  auth = testAuth(test.db);
  wrapSlug = (await addProduct(test.db, { name: 'Kitenge Wrap', price: 45_000, stock: 5 })).slug;
  await addProduct(test.db, { name: 'Silk Scarf', price: 30_000, stock: 5 });
  shopper = await signedInShopper(test.db, auth, { name: 'Grace Atim' });
});
afterAll(() => test.close());

const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);
type Answer = Awaited<ReturnType<typeof queryOverHttp>>;

/** A refusal a shopper can read: the status, a short message, no input and no internals. */
function refusedWith(answer: Answer, status: number, message: string) {
  const text = JSON.stringify(answer.body);
  const shown = text.slice(0, 300);
  expect(answer.status, shown).toBe(status);
  expect(text.length, shown).toBeLessThan(1024);
  expect(answer.body.error?.message).toBe(message);
  expect(text).not.toMatch(/received|stack|valibot|\\u0000/i);
}

const profile = (change: Record<string, unknown>) =>
  mutateOverHttp(
    test.db,
    'account.updateProfile',
    { fullName: 'Grace Atim', phone: '', address: '', ...change },
    { auth, cookie: shopper.cookie },
  );
const settings = (change: Record<string, unknown>) =>
  mutateOverHttp(
    test.db,
    'account.saveSettings',
    { ...defaultSettings('Grace'), ...change },
    { auth, cookie: shopper.cookie },
  );

describe('a NUL character', () => {
  it('in a search term is read as a space: the search answers, it never fails', async () => {
    for (const scope of ['all', 'name']) {
      const answer = await queryOverHttp(test.db, 'catalogue.search', {
        term: 'Kitenge\u0000Wrap',
        scope,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.result?.data).toMatchObject({
        term: 'Kitenge Wrap',
        total: 1,
        products: [{ name: 'Kitenge Wrap' }],
      });
    }
    const onlyNul = await queryOverHttp(test.db, 'catalogue.search', { term: '\u0000' });
    expect(onlyNul.status).toBe(200);
    expect(onlyNul.body.result?.data).toMatchObject({ term: '', total: 0, products: [] });
  });

  it('in a product slug finds no product: 404 Product not found', async () => {
    const found = await queryOverHttp(test.db, 'catalogue.productBySlug', { slug: wrapSlug });
    expect(found.status).toBe(200);
    for (const slug of [wrapSlug.replace('-', '\u0000'), '\u0000', `${wrapSlug}\u0000`]) {
      refusedWith(
        await queryOverHttp(test.db, 'catalogue.productBySlug', { slug }),
        404,
        'Product not found',
      );
    }
  });

  it('in a profile field is refused with the field named, and nothing is saved', async () => {
    refusedWith(
      await profile({ fullName: 'Grace\u0000Atim' }),
      400,
      'Full name cannot contain invisible control characters.',
    );
    refusedWith(
      await profile({ address: 'Plot 4\u0000, Kampala' }),
      400,
      'Address cannot contain invisible control characters.',
    );
    refusedWith(
      await profile({ phone: '0772\u0000123456' }),
      400,
      'Please enter a valid phone number (+256 and 9 digits, or 10 to 15 digits)',
    );
    const [row] = await test.db.select().from(profiles).where(eq(profiles.id, shopper.id));
    expect(row).toMatchObject({ fullName: 'Grace Atim', phone: null, address: null });
  });

  it('in the settings display name is refused, and nothing is saved', async () => {
    refusedWith(
      await settings({ account: { displayName: 'Gr\u0000ace', twoFactorAuth: false } }),
      400,
      'Display name cannot contain invisible control characters.',
    );
    const rows = await test.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, shopper.id));
    expect(rows).toEqual([]);
  });

  it('in the contact form or the newsletter box is refused, and nothing is stored', async () => {
    const form = { name: 'Grace', email: 'grace@example.ug', phone: '', comment: 'Hello' };
    const send = (change: Record<string, unknown>) =>
      mutateOverHttp(test.db, 'contact.send', { ...form, ...change });
    refusedWith(
      await send({ name: 'Gr\u0000ace' }),
      400,
      'Name cannot contain invisible control characters.',
    );
    refusedWith(
      await send({ comment: 'Size 18?\u0000' }),
      400,
      'Message cannot contain invisible control characters.',
    );
    refusedWith(
      await send({ email: 'grace\u0000@example.ug' }),
      400,
      'Please enter a valid email address.',
    );
    refusedWith(
      await mutateOverHttp(test.db, 'contact.subscribe', { email: 'grace@example.ug\u0000' }),
      400,
      'Please enter a valid email address.',
    );
    expect(await test.db.select().from(contactMessages)).toEqual([]);
    expect(await test.db.select().from(newsletterSubscriptions)).toEqual([]);
  });

  it('other control characters are refused too; tabs and line breaks stay in long text', async () => {
    refusedWith(
      await profile({ fullName: 'Grace\u0007' }),
      400,
      'Full name cannot contain invisible control characters.',
    );
    refusedWith(
      await profile({ fullName: 'Grace\nAtim' }),
      400,
      'Full name cannot contain invisible control characters.',
    );
    // A lone surrogate is not text either (it cannot be stored as UTF-8).
    refusedWith(
      await profile({ fullName: 'Grace \ud800' }),
      400,
      'Full name cannot contain invisible control characters.',
    );
    const saved = await profile({ address: 'Plot 4,\r\nKampala Road\tKampala' });
    expect(saved.status).toBe(200);
    expect(saved.body.result?.data).toMatchObject({ address: 'Plot 4,\r\nKampala Road\tKampala' });
  });
});

describe('a 5 MB string', () => {
  it('gets a short message wherever it is sent, never the input back', async () => {
    refusedWith(
      await queryOverHttp(test.db, 'catalogue.search', { term: FIVE_MB }),
      400,
      'Search terms can be at most 100 characters.',
    );
    refusedWith(
      await queryOverHttp(test.db, 'catalogue.productBySlug', { slug: FIVE_MB }),
      404,
      'Product not found',
    );
    refusedWith(
      await profile({ fullName: FIVE_MB }),
      400,
      'Full name must be at most 100 characters.',
    );
    refusedWith(
      await profile({ address: FIVE_MB }),
      400,
      'Address must be at most 500 characters.',
    );
    refusedWith(
      await mutateOverHttp(test.db, 'contact.send', { email: 'a@example.ug', comment: FIVE_MB }),
      400,
      'Message must be 2,000 characters or fewer.',
    );
    refusedWith(
      await mutateOverHttp(test.db, 'contact.subscribe', { email: FIVE_MB }),
      400,
      'Email address must be 254 characters or fewer.',
    );
  });

  it('in a place where a group of fields belongs gets a short message too', async () => {
    refusedWith(await settings({ notifications: FIVE_MB }), 400, 'Please check your settings.');
    refusedWith(await settings({ appearance: [FIVE_MB] }), 400, 'Please check your settings.');
    refusedWith(
      await mutateOverHttp(test.db, 'account.updateProfile', FIVE_MB, {
        auth,
        cookie: shopper.cookie,
      }),
      400,
      'Please check your profile details.',
    );
    refusedWith(
      await queryOverHttp(test.db, 'catalogue.list', { categoryId: FIVE_MB }),
      400,
      'Category id must be a number',
    );
    refusedWith(
      await queryOverHttp(test.db, 'catalogue.list', { group: FIVE_MB }),
      400,
      'Unknown product group',
    );
    refusedWith(
      await queryOverHttp(test.db, 'catalogue.search', FIVE_MB),
      400,
      'An error occurred while searching.',
    );
    refusedWith(
      await mutateOverHttp(
        test.db,
        'account.deleteAccount',
        { password: FIVE_MB },
        {
          auth,
          cookie: shopper.cookie,
        },
      ),
      400,
      'Password is incorrect',
    );
  });
});
