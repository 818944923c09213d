import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makeQueryClient } from './query-client';

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
