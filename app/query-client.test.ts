import { MutationObserver } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { makeQueryClient, retryQuery } from './query-client';

// tRPC's keys: [path, { input, type }] for a query, [path] for a mutation.
const searchKey = [['catalogue', 'search'], { input: { term: 'Yak' }, type: 'query' }];
const sessionKey = [['account', 'session'], { type: 'query' }];

async function run(mutationKey: unknown[]) {
  const client = makeQueryClient();
  client.setQueryData(searchKey, { products: [] });
  client.setQueryData(sessionKey, { user: null });
  await new MutationObserver(client, {
    mutationKey,
    mutationFn: async () => ({ ok: true }),
  }).mutate();
  return {
    search: client.getQueryState(searchKey)?.isInvalidated,
    session: client.getQueryState(sessionKey)?.isInvalidated,
  };
}

describe('the query cache after a change', () => {
  it('forgets every catalogue answer once a desk change succeeds (a piece published shows on /search at once)', async () => {
    expect(await run([['desk', 'saveProduct']])).toEqual({ search: true, session: false });
  });

  it("keeps them after a shopper's own change", async () => {
    expect(await run([['cart', 'add']])).toEqual({ search: false, session: false });
  });
});

describe('a failed query asked again', () => {
  const answered = (code: string, httpStatus: number) =>
    TRPCClientError.from({ error: { message: 'No', code: -32600, data: { code, httpStatus } } });

  it('never after a refusal, a missing thing or a rejected question (a staff member refused sees so at once)', () => {
    for (const [code, status] of [
      ['FORBIDDEN', 403],
      ['UNAUTHORIZED', 401],
      ['NOT_FOUND', 404],
      ['BAD_REQUEST', 400],
    ] as const) {
      expect(retryQuery(0, answered(code, status)), code).toBe(false);
    }
  });

  it('up to three times after a failure that may pass (offline, a 500, a rate limit)', () => {
    const offline = TRPCClientError.from(new TypeError('Failed to fetch'));
    for (const error of [offline, answered('INTERNAL_SERVER_ERROR', 500), new Error('x')]) {
      expect([0, 1, 2, 3].map((n) => retryQuery(n, error))).toEqual([true, true, true, false]);
    }
  });
});
