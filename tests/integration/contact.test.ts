import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, newsletterSubscriptions } from '#db/schema/index.ts';
import { appRouter } from '#server/routers/index.ts';
import { openTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { callerFor, testContext } from '../support/trpc.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await openTestDatabase();
});
afterAll(() => test.close());
beforeEach(async () => {
  await test.db.delete(newsletterSubscriptions);
  await test.db.delete(contactMessages);
});

/** A mutation over HTTP, as the browser sends it: the status and the shopper-visible body. */
async function mutate(path: string, input: unknown) {
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: new Request(`http://shop.test/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }),
    router: appRouter,
    createContext: () => testContext(test.db, new Headers()),
  });
  const body = (await response.json()) as {
    result?: { data: unknown };
    error?: { message: string; data: { code: string; httpStatus: number } };
  };
  return { status: response.status, body, text: JSON.stringify(body) };
}

async function refused(path: string, input: unknown) {
  const { status, body, text } = await mutate(path, input);
  expect(status).toBe(400);
  expect(body.error?.data.code).toBe('BAD_REQUEST');
  expect(text).not.toMatch(/stack|at .*\.ts:\d+|valibot/i);
  return body.error?.message;
}

const subscribers = () => test.db.select().from(newsletterSubscriptions);
const messages = () => test.db.select().from(contactMessages);

describe('newsletter (contact.subscribe)', () => {
  it('stores an address once, trimmed and lower-cased, and says when it was already there', async () => {
    const caller = callerFor(test.db);
    await expect(caller.contact.subscribe({ email: '  Amara@Example.UG ' })).resolves.toEqual({
      email: 'amara@example.ug',
      isNew: true,
    });
    await expect(caller.contact.subscribe({ email: 'AMARA@example.ug' })).resolves.toEqual({
      email: 'amara@example.ug',
      isNew: false,
    });
    const rows = await subscribers();
    expect(rows.map((r) => r.email)).toEqual(['amara@example.ug']);
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('answers bad addresses with a clear message and stores nothing', async () => {
    expect(await refused('contact.subscribe', { email: 'not-an-email' })).toBe(
      'Please enter a valid email address.',
    );
    expect(await refused('contact.subscribe', { email: 'amara@example' })).toBe(
      'Please enter a valid email address.',
    );
    expect(await refused('contact.subscribe', { email: '   ' })).toBe(
      'Please enter your email address.',
    );
    expect(await refused('contact.subscribe', {})).toBe('Please enter your email address.');
    expect(await refused('contact.subscribe', { email: 42 })).toBe(
      'Please enter a valid email address.',
    );
    expect(await refused('contact.subscribe', { email: ['a@b.ug'] })).toBe(
      'Please enter a valid email address.',
    );
    expect(await refused('contact.subscribe', 'a@b.ug')).toBe(
      'Please fill in the form and try again.',
    );
    expect(await refused('contact.subscribe', { email: `${'a'.repeat(10_000)}@example.ug` })).toBe(
      'Email address must be 254 characters or fewer.',
    );
    expect(
      await refused('contact.subscribe', { email: '<script>alert(1)</script>@example.ug' }),
    ).toBe('Please enter a valid email address.');
    expect(await subscribers()).toEqual([]);
  });

  it('accepts an address of exactly 254 characters', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.ug`;
    expect(email).toHaveLength(254);
    const { status } = await mutate('contact.subscribe', { email });
    expect(status).toBe(200);
    expect((await subscribers()).map((r) => r.email)).toEqual([email]);
  });
});

describe('contact form (contact.send)', () => {
  it('stores one message with the phone normalised and blanks as null', async () => {
    const { status, body } = await mutate('contact.send', {
      name: '  Grace Atim ',
      email: 'Grace@Example.UG',
      phone: '0772 123 456',
      comment: 'Do you tailor the wrap dress in size 18?\nThank you.',
    });
    expect(status).toBe(200);
    expect(body.result?.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const rows = await messages();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Grace Atim',
      email: 'grace@example.ug',
      phone: '+256772123456',
      comment: 'Do you tailor the wrap dress in size 18?\nThank you.',
    });

    await callerFor(test.db).contact.send({ email: 'only@example.ug', name: '', phone: '  ' });
    const [bare] = await test.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, 'only@example.ug'));
    expect(bare).toMatchObject({ name: null, phone: null, comment: null });
    expect(await messages()).toHaveLength(2);
  });

  it('keeps a script tag as plain text: stored verbatim, never interpreted', async () => {
    const script = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    await callerFor(test.db).contact.send({ name: script, email: 'x@example.ug', comment: script });
    const [row] = await messages();
    expect(row?.name).toBe(script);
    expect(row?.comment).toBe(script);
  });

  it('answers each bad field with a clear message and stores nothing', async () => {
    const ok = { email: 'a@example.ug' };
    expect(await refused('contact.send', { ...ok, email: 'grace at example' })).toBe(
      'Please enter a valid email address.',
    );
    expect(await refused('contact.send', { name: 'Grace' })).toBe(
      'Please enter your email address.',
    );
    expect(await refused('contact.send', { ...ok, name: 'n'.repeat(101) })).toBe(
      'Name must be 100 characters or fewer.',
    );
    expect(await refused('contact.send', { ...ok, name: 'x'.repeat(10_000) })).toBe(
      'Name must be 100 characters or fewer.',
    );
    expect(await refused('contact.send', { ...ok, comment: 'x'.repeat(10_000) })).toBe(
      'Message must be 2,000 characters or fewer.',
    );
    expect(await refused('contact.send', { ...ok, phone: '9'.repeat(10_000) })).toBe(
      'Please enter a valid phone number, e.g. 0772 123 456.',
    );
    expect(await refused('contact.send', { ...ok, phone: '12' })).toBe(
      'Please enter a valid phone number, e.g. 0772 123 456.',
    );
    expect(await refused('contact.send', { ...ok, phone: 'call me maybe 0772123456' })).toBe(
      'Please enter a valid phone number, e.g. 0772 123 456.',
    );
    expect(await refused('contact.send', { ...ok, phone: 772123456 })).toBe(
      'Please enter a valid phone number, e.g. 0772 123 456.',
    );
    expect(await refused('contact.send', { ...ok, name: { first: 'Grace' } })).toBe(
      'Name must be text.',
    );
    expect(await refused('contact.send', { ...ok, comment: ['hi'] })).toBe('Message must be text.');
    expect(await refused('contact.send', null)).toBe('Please fill in the form and try again.');
    expect(await messages()).toEqual([]);
  });

  // A NUL byte is refused with a clear message: tests/integration/bad-input.test.ts.
  it('accepts the longest allowed fields', async () => {
    const { status } = await mutate('contact.send', {
      name: 'n'.repeat(100),
      email: 'long@example.ug',
      phone: '+256 (772) 123-456',
      comment: 'c'.repeat(2000),
    });
    expect(status).toBe(200);
    const [row] = await messages();
    expect(row?.name).toHaveLength(100);
    expect(row?.comment).toBe('c'.repeat(2000));
    expect(row?.phone).toBe('+256772123456');
  });
});

describe('social pages (contact.channels)', () => {
  it('are the configured ones, and none when none are configured', async () => {
    await expect(callerFor(test.db).contact.channels()).resolves.toMatchObject({ social: [] });
    const social = [{ network: 'Instagram', url: 'https://www.instagram.com/duuka.ug' }] as const;
    await expect(
      callerFor(test.db, new Headers(), { social }).contact.channels(),
    ).resolves.toMatchObject({ social });
  });
});
